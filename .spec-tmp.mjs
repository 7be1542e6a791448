import YAML from 'yaml';
import fs from 'node:fs';
const doc = YAML.parse(fs.readFileSync('/work/shared/provider-specs/intercom/api.intercom.io.2.14.yaml','utf8'));
globalThis.doc = doc;
const want = process.argv.slice(2);
for (const [p, ops] of Object.entries(doc.paths)) {
  for (const [m, op] of Object.entries(ops)) {
    if (typeof op !== 'object' || !op.operationId) continue;
    if (want.length && !want.some(w => p.includes(w))) continue;
    console.log(m.toUpperCase(), p, op.operationId, (op.parameters||[]).map(x=>x.$ref? x.$ref.split('/').pop() : `${x.in}:${x.name}`).join(','));
  }
}
