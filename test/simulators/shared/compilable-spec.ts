/**
 * A provider's OpenAPI 3.0 description as the validator can compile it. Some descriptions say
 * `nullable: true` next to a `oneOf`, `anyOf` or `allOf` without a `type`, or as a member of an `allOf`, which OpenAPI 3.0 leaves undefined
 * and Ajv refuses to compile (GitHub's 2022 snapshot on three request properties; Asana's on most references
 * to another object). They are rewritten, in a temporary copy outside the project, to what they mean — the
 * alternatives plus `{enum: [null]}` — and nothing else changes. References into other places than
 * components, written as percent-encoded pointers with escaped segments (ClickUp's
 * `#/paths/~1v2~1task~1%7Btask_id%7D/…`), which the dereferencer cannot follow, point instead at a copy of the
 * schema they name under `components.schemas`. JSON and YAML documents are read; the copy
 * is JSON.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';

/**
 * An `allOf` member that says only `nullable` (with a description, readOnly, or `type: object`): a flag meaning
 * "or null" for the whole `allOf` — Ajv would otherwise refuse null through the other members.
 */
const isNullableFlag = (x: unknown) => {
  if (!x || typeof x !== 'object') return false;
  const m = x as Record<string, unknown>;
  return m.nullable !== undefined && (m.type === undefined || m.type === 'object') && Object.keys(m).every((k) => ['nullable', 'description', 'readOnly', 'type'].includes(k));
};

const made = new Map<string, Promise<{ file: string; fixes: string[] }>>();

/** Made once per process and file: simulators started again in one test file reuse the copy. */
export function compilableSpec(file: string, label: string): Promise<{ file: string; fixes: string[] }> {
  const key = `${label}\u0000${file}`;
  let copy = made.get(key);
  if (!copy) {
    copy = makeCompilable(file, label);
    made.set(key, copy);
    copy.catch(() => made.delete(key));
  }
  return copy;
}

async function makeCompilable(file: string, label: string): Promise<{ file: string; fixes: string[] }> {
  const text = await readFile(file, 'utf8');
  const doc = (/\.ya?ml$/i.test(file) ? YAML.parse(text, { maxAliasCount: -1 }) : JSON.parse(text)) as unknown;
  const fixes: string[] = [];
  const root = doc as { components?: { schemas?: Record<string, unknown> } };
  const hoisted = new Map<string, string>();
  const hoist = (pointer: string): string => {
    let name = hoisted.get(pointer);
    if (name) return name;
    let target: unknown = doc;
    for (const seg of pointer.slice(2).split('/')) target = (target as Record<string, unknown> | undefined)?.[seg.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (target === undefined) throw new Error(`${file}: the reference ${pointer} names nothing`);
    name = `hoisted_${hoisted.size + 1}`;
    hoisted.set(pointer, name);
    root.components ??= {};
    root.components.schemas ??= {};
    root.components.schemas[name] = target;
    return name;
  };
  const walk = (node: unknown, at: string) => {
    if (Array.isArray(node)) return node.forEach((x, i) => walk(x, `${at}/${i}`));
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    // `$ref: '#/paths/~1v2~1task~1%7Btask_id%7D/…'` (ClickUp): a percent-encoded pointer with escaped segments,
    // which the dereferencer cannot follow; the schema it names is given a name under components.schemas.
    if (typeof n.$ref === 'string' && n.$ref.startsWith('#/') && /%[0-9a-f]{2}|~[01]/i.test(n.$ref)) {
      n.$ref = `#/components/schemas/${hoist(decodeURIComponent(n.$ref))}`;
      fixes.push(at);
    }
    // `allOf: [{$ref}, {nullable: true}]` (Asana): the reference, or null.
    const flag = Array.isArray(n.allOf) ? (n.allOf as unknown[]).findIndex(isNullableFlag) : -1;
    if (flag >= 0) {
      const [marker] = (n.allOf as Record<string, unknown>[]).splice(flag, 1);
      if (marker!.nullable === true) {
        n.anyOf = [{ allOf: n.allOf }, { enum: [null] }];
        delete n.allOf;
      }
      fixes.push(at);
    }
    if (n.nullable !== undefined && n.type === undefined) {
      if (Array.isArray(n.oneOf) || Array.isArray(n.anyOf)) {
        const key = Array.isArray(n.oneOf) ? 'oneOf' : 'anyOf';
        if (n.nullable === true) (n[key] as unknown[]).push({ enum: [null] });
        delete n.nullable;
        fixes.push(at);
      } else if (Array.isArray(n.allOf)) {
        if (n.nullable === true) {
          n.anyOf = [{ allOf: n.allOf }, { enum: [null] }];
          delete n.allOf;
        }
        delete n.nullable;
        fixes.push(at);
      }
    }
    for (const [k, v] of Object.entries(n)) walk(v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
  };
  walk(doc, '#');
  if (fixes.length === 0) return { file, fixes };
  const dir = path.join(os.tmpdir(), 'omniport-provider-specs');
  await mkdir(dir, { recursive: true });
  const out = path.join(dir, `${label}-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.json`);
  // Test files run in parallel processes: write a private file, then rename it into place (atomic), so
  // that no process ever reads a half-written copy.
  const tmp = `${out}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(tmp, JSON.stringify(doc));
  await rename(tmp, out);
  return { file: out, fixes };
}
