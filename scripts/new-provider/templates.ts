/**
 * The scaffold's files: scripts/new-provider/template/**.tpl (plain text, so they are neither type-checked nor
 * linted as they stand), with `__name__`, `__camel__`, `__Pascal__` and `__Display__` replaced in paths and text.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Names {
  /** Folder and manifest name: `acme-desk`. */
  name: string;
  /** `acmeDesk` */
  camel: string;
  /** `AcmeDesk` */
  pascal: string;
  /** `Acme Desk` */
  display: string;
}

const templateDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'template');

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** Relative path → text of every file of the scaffold for these names. */
export function templates(n: Names): Record<string, string> {
  const fill = (s: string) => s.replaceAll('__name__', n.name).replaceAll('__camel__', n.camel).replaceAll('__Pascal__', n.pascal).replaceAll('__Display__', n.display);
  return Object.fromEntries(
    walk(templateDir)
      .filter((f) => f.endsWith('.tpl'))
      .sort()
      .map((f) => [fill(path.relative(templateDir, f).slice(0, -'.tpl'.length)).split(path.sep).join('/'), fill(fs.readFileSync(f, 'utf8'))]),
  );
}
