import YAML from 'yaml';
import fs from 'node:fs';
const doc = YAML.parse(fs.readFileSync('/work/shared/provider-specs/intercom/api.intercom.io.2.14.yaml','utf8'));
const resolve = (o, depth=0) => {
  if (depth > 6 || o === null || typeof o !== 'object') return o;
  if (o.$ref) { const name = o.$ref.split('/').pop(); const t = o.$ref.split('/').slice(1).reduce((a,k)=>a[k], doc); return depth>3 ? `<${name}>` : resolve(t, depth+1); }
  if (Array.isArray(o)) return o.map(x=>resolve(x,depth));
  const out = {};
  for (const [k,v] of Object.entries(o)) { if (['example','examples','description'].includes(k)) continue; out[k]=resolve(v,depth+1); }
  return out;
};
const [m,p,part] = process.argv.slice(2);
const op = part==="schema" ? null : doc.paths[p][m];
if (part==='req') console.log(JSON.stringify(resolve(op.requestBody?.content?.['application/json']?.schema), null, 0));
else if (part==='res') console.log(JSON.stringify(resolve(op.responses?.['200']?.content?.['application/json']?.schema ?? op.responses?.['201']), null, 0));
else if (part==='schema') console.log(JSON.stringify(resolve(doc.components.schemas[p]), null, 0));
