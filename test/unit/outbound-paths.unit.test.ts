/**
 * Every outbound call in src/ goes through the one guarded path (issue 40): the address guard's dispatcher
 * (`outboundAgent`, src/core/network.ts), which checks the address actually dialled, for every redirect and retry.
 * This test reads every source file and fails on any way of making a request that is not listed below with the
 * guard it uses: a new `fetch`, `undici` request, `http.request`, socket … must either pass `outboundAgent` or be
 * added here with the reason it is safe.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '../../src');

/** Ways of sending a request or opening a socket, as they appear in source. */
const OUTBOUND: { name: string; pattern: RegExp }[] = [
  { name: 'global fetch', pattern: /(?<![.\w])fetch\s*\(/ },
  { name: 'undici', pattern: /import\s*\{[^}]*\b(request|fetch|stream|pipeline|connect|Client|Pool)\b[^}]*\}\s*from\s*'undici'/ },
  { name: 'node http(s) client', pattern: /(?<![.\w])https?\.(request|get)\s*\(/ },
  { name: 'socket', pattern: /(?<![.\w])(net|tls)\.(connect|createConnection)\s*\(/ },
  { name: 'WebSocket / XHR', pattern: /\bnew\s+(WebSocket|XMLHttpRequest)\b/ },
];

/**
 * The outbound paths, each with its guard. `mustContain`: text the file must hold, the guard's use, so that
 * removing the guard fails this test too.
 */
const ALLOWED: Record<string, { why: string; mustContain: string[] }> = {
  'providers/http-client.ts': {
    why: 'every provider call (adapters, passthrough, OAuth token endpoints, Jira sites): undici request through the guarded dispatcher',
    mustContain: ['dispatcher: outboundAgent('],
  },
  'events/dispatcher.ts': {
    why: 'customer webhook deliveries: fetch through the guarded dispatcher, redirects not followed',
    mustContain: ['dispatcher: outboundAgent(', "redirect: 'manual'"],
  },
  'core/file-fetch.ts': {
    why: 'attachments given by URL: undici request through the guarded dispatcher, no redirects',
    mustContain: ['outboundAgent(', 'dispatcher: this.agent', 'maxRedirections: 0'],
  },
  'sandbox/deliver.ts': {
    why: "the sandbox simulators' webhooks: handed to this Omniport's own receiver in process (Fastify inject), never to the network",
    mustContain: ['.inject('],
  },
};

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return /\.(ts|js|mjs)$/.test(e.name) ? [full] : [];
  });
}

/** A method named fetch, defined or declared (an adapter's `fetchChanged.fetch(ctx, …) {`): not a request. */
const METHOD_NAMED_FETCH = /^\s*(async\s+)?fetch\s*\(.*\)\s*(:[^=]+)?[{;]\s*$/;

/** The file without its comments and fetch method definitions, so that neither counts as a call. */
const code = (text: string) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1')
    .split('\n')
    .filter((line) => !METHOD_NAMED_FETCH.test(line))
    .join('\n');

it('finds no outbound call outside the guarded paths', () => {
  const found: string[] = [];
  for (const file of sources(SRC)) {
    const rel = path.relative(SRC, file).split(path.sep).join('/');
    const text = code(fs.readFileSync(file, 'utf8'));
    for (const { name, pattern } of OUTBOUND) {
      if (pattern.test(text) && !ALLOWED[rel]) found.push(`${rel}: ${name}`);
    }
  }
  expect(found, 'outbound calls must go through outboundAgent (src/core/network.ts), or be listed with their guard').toEqual([]);
});

it('keeps the guard in every listed path', () => {
  for (const [rel, { mustContain }] of Object.entries(ALLOWED)) {
    const text = code(fs.readFileSync(path.join(SRC, rel), 'utf8'));
    for (const needle of mustContain) expect(text.includes(needle), `${rel} must contain ${needle}`).toBe(true);
  }
});

it('would catch an unguarded call', () => {
  const probe = 'const r = await fetch(url, { method: "POST" });';
  expect(OUTBOUND.some(({ pattern }) => pattern.test(code(probe)))).toBe(true);
  expect(OUTBOUND.some(({ pattern }) => pattern.test(code('https.request(options, cb)')))).toBe(true);
  expect(OUTBOUND.some(({ pattern }) => pattern.test(code("import { request } from 'undici';")))).toBe(true);
  // A method named fetch (an adapter's fetchChanged.fetch) is not a request.
  expect(OUTBOUND.some(({ pattern }) => pattern.test(code('async fetch(ctx, ids) {\n  return x.fetch(a);\n}\nfetch(ctx: Ctx): Promise<R[]>;\nawait ctx.http.get(p);')))).toBe(false);
});
