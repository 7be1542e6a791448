/**
 * A local OAuth 2.0 authorization server (RFC 6749, PKCE RFC 7636, revocation RFC 7009) with a small
 * protected API, for the hosted connect page's tests.
 *
 *   GET  /oauth/authorize           consent page (client and redirect_uri checked first; errors per §4.1.2.1)
 *   POST /oauth/authorize/decision  the page's Approve / Deny buttons → 302 to redirect_uri with code|error and state
 *   POST /oauth/token               authorization_code (single-use code, redirect_uri and PKCE S256 checked),
 *                                   refresh_token (rotation; a rotated-out token used again revokes its family)
 *   POST /oauth/revoke              token revocation
 *   GET  /api/me                    Bearer access token, or Basic email:api_token (addApiToken) → the user; 401 otherwise
 *   GET  /api/tickets, POST /api/tickets   a tiny ticket list for sync and writes
 *
 * Clients authenticate at the token endpoint with client_secret_post or client_secret_basic (`clientAuth`).
 * Paths can be moved (`paths`) to imitate a provider's own (e.g. Zendesk's /oauth/tokens).
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { htmlEscape } from 'escape-goat';

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
  name: string;
  redirectUris: string[];
}

export interface OAuthSimulatorOptions {
  clients?: OAuthClient[];
  accessTokenTtlSeconds?: number;
  /** Issue a new refresh token on every refresh and invalidate the old one (default true). */
  rotateRefreshTokens?: boolean;
  /** Refuse authorization requests without a PKCE challenge. */
  requirePkce?: boolean;
  clientAuth?: 'post' | 'basic' | 'any';
  paths?: Partial<{ authorize: string; token: string; revoke: string }>;
  /**
   * The token answer in a provider's own shape (Salesforce: no expires_in, its instance_url, no new refresh
   * token on a refresh), from the standard one.
   */
  shapeTokenAnswer?: (answer: Record<string, unknown>, grantType: 'authorization_code' | 'refresh_token') => Record<string, unknown>;
}

export interface GrantRecord {
  grantType: string;
  ok: boolean;
  /** The token request's Content-Type (form-encoded, or JSON for providers that take JSON). */
  contentType?: string;
  /** The token request's parameter names, sorted (never their values), and its scope. */
  params?: string[];
  scope?: string;
  error?: string;
  at: number;
}

export interface OAuthSimulator {
  readonly url: string;
  readonly clients: OAuthClient[];
  /** Paths of the endpoints (absolute URLs: `${url}${paths.token}`). */
  readonly paths: { authorize: string; token: string; revoke: string };
  addRedirectUri(clientId: string, uri: string): void;
  accessTokenTtlSeconds: number;
  /** Delay before the token endpoint answers (widens race windows). */
  tokenDelayMs: number;
  /** Every token request, in order. */
  readonly grants: GrantRecord[];
  refreshCount(): number;
  /** Every request to the protected API, with the access token or basic user it carried. */
  readonly apiCalls: { method: string; path: string; token?: string; status: number }[];
  /** Access tokens stop working (as if they expired early): the API answers 401. */
  expireAccessTokens(): void;
  /** Every refresh token stops working: refreshes answer invalid_grant. */
  revokeRefreshTokens(): void;
  /** Basic email:token credentials accepted by the API. */
  addApiToken(email: string, token: string): void;
  /** An access token issued by another authorization server, accepted by this one's API. */
  acceptAccessToken(token: string): void;
  /** Called with every access token issued (e.g. to let another simulator accept it). */
  onAccessToken?: (token: string) => void;
  /** The next token request answers this status and body. */
  failNextTokenRequest(status: number, body: Record<string, unknown>): void;
  readonly tickets: { id: number; subject: string; updated_at: string }[];
  close(): Promise<void>;
}

interface CodeRecord {
  clientId: string;
  redirectUri: string;
  scope: string;
  challenge?: string;
  expiresAt: number;
  used: boolean;
  /** Tokens issued from this code (revoked if the code is replayed). */
  family?: string;
}

interface TokenRecord {
  kind: 'access' | 'refresh';
  clientId: string;
  scope: string;
  family: string;
  expiresAt?: number;
  revoked: boolean;
  /** A refresh token replaced by rotation. */
  rotated?: boolean;
}

const rand = (bytes = 24) => randomBytes(bytes).toString('base64url');

async function readBody(req: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const type = req.headers['content-type'] ?? '';
  if (type.includes('application/json')) {
    try {
      return JSON.parse(text) as Record<string, string>;
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache', ...headers });
  res.end(JSON.stringify(body));
}

function page(res: ServerResponse, status: number, title: string, body: string) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${htmlEscape(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;background:#eef2f6;margin:0}main{max-width:28rem;margin:4rem auto;background:#fff;padding:2rem;border-radius:10px;border:1px solid #ccd}
h1{font-size:1.3rem}button{font:inherit;padding:.6rem 1.2rem;margin-right:.5rem;border-radius:6px;border:1px solid #888;cursor:pointer}
button.primary{background:#2d6a4f;color:#fff;border-color:#2d6a4f}.brand{font-weight:700;color:#2d6a4f;letter-spacing:.05em}</style></head>
<body><main><p class="brand">ACME ACCOUNTS (simulator)</p>${body}</main></body></html>`);
}

export async function startOAuthSimulator(opts: OAuthSimulatorOptions = {}): Promise<OAuthSimulator> {
  const clients = opts.clients ?? [{ clientId: 'omniport-test-client', clientSecret: 'sim-client-secret', name: 'Omniport (test)', redirectUris: [] }];
  const paths = { authorize: '/oauth/authorize', token: '/oauth/token', revoke: '/oauth/revoke', ...opts.paths };
  const rotate = opts.rotateRefreshTokens ?? true;
  const codes = new Map<string, CodeRecord>();
  const tokens = new Map<string, TokenRecord>();
  const apiTokens = new Map<string, string>();
  const tickets: OAuthSimulator['tickets'] = [];
  let nextFailure: { status: number; body: Record<string, unknown> } | undefined;

  const sim = {
    url: '',
    clients,
    paths,
    accessTokenTtlSeconds: opts.accessTokenTtlSeconds ?? 3600,
    tokenDelayMs: 0,
    grants: [] as GrantRecord[],
    apiCalls: [] as OAuthSimulator['apiCalls'],
    tickets,
    onAccessToken: undefined as ((token: string) => void) | undefined,
  };

  const issue = (clientId: string, scope: string, family: string) => {
    const access = `sim_at_${rand()}`;
    const refresh = `sim_rt_${rand()}`;
    tokens.set(access, { kind: 'access', clientId, scope, family, expiresAt: Date.now() + sim.accessTokenTtlSeconds * 1000, revoked: false });
    tokens.set(refresh, { kind: 'refresh', clientId, scope, family, revoked: false });
    sim.onAccessToken?.(access);
    return { access_token: access, token_type: 'Bearer', expires_in: sim.accessTokenTtlSeconds, refresh_token: refresh, scope };
  };
  const revokeFamily = (family: string) => {
    for (const t of tokens.values()) if (t.family === family) t.revoked = true;
  };

  /** client_secret_basic or client_secret_post, never both (RFC 6749 §2.3). */
  const authenticateClient = (req: IncomingMessage, body: Record<string, string>): OAuthClient | { error: string; status: number } => {
    const basic = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    let id: string | undefined;
    let secret: string | undefined;
    if (basic) {
      if (body.client_secret) return { error: 'invalid_request', status: 400 };
      const [u, p] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':');
      id = decodeURIComponent(u ?? '');
      secret = decodeURIComponent(p ?? '');
      if (opts.clientAuth === 'post') return { error: 'invalid_client', status: 401 };
    } else {
      id = body.client_id;
      secret = body.client_secret;
      if (opts.clientAuth === 'basic' && secret) return { error: 'invalid_client', status: 401 };
    }
    const client = clients.find((c) => c.clientId === id);
    if (!client || !secret || client.clientSecret !== secret) return { error: 'invalid_client', status: 401 };
    return client;
  };

  const apiUser = (req: IncomingMessage): { token?: string; ok: boolean } => {
    const auth = req.headers.authorization ?? '';
    const bearer = /^Bearer\s+(\S+)$/i.exec(auth);
    if (bearer) {
      const t = tokens.get(bearer[1]!);
      const ok = Boolean(t && t.kind === 'access' && !t.revoked && (t.expiresAt ?? Infinity) > Date.now());
      return { token: bearer[1], ok };
    }
    const basic = /^Basic\s+(\S+)$/i.exec(auth);
    if (basic) {
      const [email, token] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':');
      return { token: `basic:${email}`, ok: Boolean(email && token && apiTokens.get(email) === token) };
    }
    return { ok: false };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', sim.url);
    const method = req.method ?? 'GET';

    if (method === 'GET' && url.pathname === paths.authorize) {
      const q = Object.fromEntries(url.searchParams);
      const client = clients.find((c) => c.clientId === q.client_id);
      if (!client) return page(res, 400, 'Error', '<h1>Unknown application</h1><p>client_id is not registered.</p>');
      if (!q.redirect_uri || !client.redirectUris.includes(q.redirect_uri)) {
        return page(res, 400, 'Error', '<h1>Invalid redirect</h1><p>redirect_uri is not registered for this application.</p>');
      }
      const back = (params: Record<string, string>) => {
        const target = new URL(q.redirect_uri!);
        for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
        if (q.state) target.searchParams.set('state', q.state);
        res.writeHead(302, { location: target.href });
        res.end();
      };
      if (q.response_type !== 'code') return back({ error: 'unsupported_response_type' });
      if (q.code_challenge && q.code_challenge_method !== 'S256') return back({ error: 'invalid_request', error_description: 'only S256' });
      if (opts.requirePkce && !q.code_challenge) return back({ error: 'invalid_request', error_description: 'PKCE required' });
      const hidden = Object.entries(q)
        .map(([k, v]) => `<input type="hidden" name="${htmlEscape(k)}" value="${htmlEscape(v)}">`)
        .join('');
      const scopes = (q.scope ?? '').split(' ').filter(Boolean);
      return page(
        res,
        200,
        'Authorize',
        `<h1>${htmlEscape(client.name)} wants to access your Acme account</h1>
<p>Signed in as <strong>jane@acme.test</strong>.</p>
${scopes.length ? `<p>It asks to:</p><ul>${scopes.map((s) => `<li>${htmlEscape(s)}</li>`).join('')}</ul>` : ''}
<form method="post" action="${paths.authorize}/decision">${hidden}
<button class="primary" type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button></form>`,
      );
    }

    if (method === 'POST' && url.pathname === `${paths.authorize}/decision`) {
      const body = await readBody(req);
      const client = clients.find((c) => c.clientId === body.client_id);
      if (!client || !body.redirect_uri || !client.redirectUris.includes(body.redirect_uri)) return page(res, 400, 'Error', '<h1>Invalid request</h1>');
      const target = new URL(body.redirect_uri);
      if (body.decision === 'approve') {
        const code = `sim_code_${rand()}`;
        codes.set(code, {
          clientId: client.clientId,
          redirectUri: body.redirect_uri,
          scope: body.scope ?? '',
          challenge: body.code_challenge || undefined,
          expiresAt: Date.now() + 60_000,
          used: false,
        });
        target.searchParams.set('code', code);
      } else {
        target.searchParams.set('error', 'access_denied');
        target.searchParams.set('error_description', 'The user denied access');
      }
      if (body.state) target.searchParams.set('state', body.state);
      res.writeHead(302, { location: target.href });
      return res.end();
    }

    if (method === 'POST' && url.pathname === paths.token) {
      const body = await readBody(req);
      if (sim.tokenDelayMs) await new Promise((r) => setTimeout(r, sim.tokenDelayMs));
      const record = (ok: boolean, error?: string) => sim.grants.push({ grantType: body.grant_type ?? '', ok, error, at: Date.now(), contentType: req.headers['content-type'], params: Object.keys(body).sort(), scope: body.scope });
      if (nextFailure) {
        const f = nextFailure;
        nextFailure = undefined;
        record(false, String(f.body.error ?? f.status));
        return json(res, f.status, f.body);
      }
      const client = authenticateClient(req, body);
      if ('error' in client) {
        record(false, client.error);
        return json(res, client.status, { error: client.error, error_description: 'client authentication failed' }, client.status === 401 ? { 'www-authenticate': 'Basic' } : {});
      }
      const fail = (error: string, description: string) => {
        record(false, error);
        return json(res, 400, { error, error_description: description });
      };
      if (body.grant_type === 'authorization_code') {
        const code = body.code ? codes.get(body.code) : undefined;
        if (!code) return fail('invalid_grant', 'unknown authorization code');
        if (code.used) {
          if (code.family) revokeFamily(code.family);
          return fail('invalid_grant', 'authorization code already used');
        }
        code.used = true;
        if (code.expiresAt < Date.now()) return fail('invalid_grant', 'authorization code expired');
        if (code.clientId !== client.clientId) return fail('invalid_grant', 'code issued to another client');
        if (body.redirect_uri !== code.redirectUri) return fail('invalid_grant', 'redirect_uri does not match');
        if (code.challenge) {
          if (!body.code_verifier) return fail('invalid_grant', 'code_verifier required');
          const computed = createHash('sha256').update(body.code_verifier).digest('base64url');
          if (computed !== code.challenge) return fail('invalid_grant', 'PKCE verification failed');
        }
        code.family = rand(8);
        record(true);
        const answer = issue(client.clientId, code.scope, code.family);
        return json(res, 200, opts.shapeTokenAnswer ? opts.shapeTokenAnswer(answer, 'authorization_code') : answer);
      }
      if (body.grant_type === 'refresh_token') {
        const t = body.refresh_token ? tokens.get(body.refresh_token) : undefined;
        if (!t || t.kind !== 'refresh' || t.clientId !== client.clientId) return fail('invalid_grant', 'unknown refresh token');
        if (t.rotated) {
          revokeFamily(t.family);
          return fail('invalid_grant', 'refresh token already used (the token family is revoked)');
        }
        if (t.revoked) return fail('invalid_grant', 'refresh token revoked');
        record(true);
        const issued = issue(client.clientId, t.scope, t.family);
        if (rotate) t.rotated = true;
        else {
          tokens.delete(issued.refresh_token);
          issued.refresh_token = body.refresh_token!;
        }
        return json(res, 200, opts.shapeTokenAnswer ? opts.shapeTokenAnswer(issued, 'refresh_token') : issued);
      }
      return fail('unsupported_grant_type', `grant_type ${body.grant_type ?? '(none)'} is not supported`);
    }

    if (method === 'POST' && url.pathname === paths.revoke) {
      const body = await readBody(req);
      const client = authenticateClient(req, body);
      if ('error' in client) return json(res, client.status, { error: client.error });
      const t = body.token ? tokens.get(body.token) : undefined;
      if (t && t.clientId === client.clientId) {
        t.revoked = true;
        if (t.kind === 'refresh') revokeFamily(t.family);
      }
      res.writeHead(200);
      return res.end();
    }

    if (url.pathname.startsWith('/api/')) {
      const user = apiUser(req);
      const log = (status: number) => sim.apiCalls.push({ method, path: url.pathname, token: user.token, status });
      if (!user.ok) {
        log(401);
        return json(res, 401, { error: 'invalid_token', message: 'The access token is invalid or expired' }, { 'www-authenticate': 'Bearer error="invalid_token"' });
      }
      if (method === 'GET' && url.pathname === '/api/me') {
        log(200);
        return json(res, 200, { id: 42, name: 'Jane Doe', email: 'jane@acme.test' });
      }
      if (method === 'GET' && url.pathname === '/api/tickets') {
        log(200);
        return json(res, 200, { tickets });
      }
      if (method === 'POST' && url.pathname === '/api/tickets') {
        const body = await readBody(req);
        const ticket = { id: tickets.length + 1, subject: String(body.subject ?? ''), updated_at: new Date().toISOString() };
        tickets.push(ticket);
        log(201);
        return json(res, 201, { ticket });
      }
      log(404);
      return json(res, 404, { error: 'not_found' });
    }
    json(res, 404, { error: 'not_found' });
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: Error) => json(res, 500, { error: 'server_error', message: err.message }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  sim.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return Object.assign(sim, {
    addRedirectUri(clientId: string, uri: string) {
      const client = clients.find((c) => c.clientId === clientId);
      if (!client) throw new Error(`unknown client ${clientId}`);
      if (!client.redirectUris.includes(uri)) client.redirectUris.push(uri);
    },
    refreshCount: () => sim.grants.filter((g) => g.grantType === 'refresh_token' && g.ok).length,
    expireAccessTokens() {
      for (const t of tokens.values()) if (t.kind === 'access') t.expiresAt = Date.now() - 1;
    },
    revokeRefreshTokens() {
      for (const t of tokens.values()) if (t.kind === 'refresh') t.revoked = true;
    },
    addApiToken(email: string, token: string) {
      apiTokens.set(email, token);
    },
    acceptAccessToken(token: string) {
      tokens.set(token, { kind: 'access', clientId: '', scope: '', family: 'foreign', revoked: false });
    },
    failNextTokenRequest(status: number, body: Record<string, unknown>) {
      nextFailure = { status, body };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
