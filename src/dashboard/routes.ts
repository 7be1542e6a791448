import fs from 'node:fs';
import { acceptForms, formOf } from '../http/forms';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifySession from '@fastify/session';
import fastifyCsrf from '@fastify/csrf-protection';
import { attemptedKeyPrefix, FailedAuthLimit } from '../http/failed-auth-limit';
import { AppError } from '../core/errors';
import type { AccessContext } from '../core/access';
import type { AuditEntry } from '../core/audit';
import type { Services } from '../services';
import type { JobRunner } from '../jobs/runner';
import type { ConnectionRow } from '../store/control-plane.repo';
import type { SyncStateRow } from '../store/unified.repo';
import { htmlPageHeaders, publicBase } from '../connect/routes';
import {
  apiKeysPage,
  connectionPage,
  connectionsPage,
  deliveriesPage,
  errorPage,
  fieldMappingsPage,
  linkedUsersPage,
  loginPage,
  magicLinksPage,
  syncSection,
  webhooksPage,
  type Frame,
  type MagicLinkForm,
  type Section,
  type StreamView,
} from './pages';

export interface DashboardOptions {
  services: Services;
  jobs: JobRunner;
  /** OMNIPORT_PUBLIC_URL: where magic links point. */
  publicUrl?: string;
}

const PAGE_SIZE = 50;
/** Failed sign-ins per source address (and per attempted key prefix) and minute before a failed one answers 429. */
const SIGN_IN_FAILURES_PER_MINUTE = 10;
/** After "Sync now", the sync section keeps refreshing until every stream succeeded, at most this long. */
const FOLLOW_SYNC_MS = 120_000;

const require = createRequire(import.meta.url);
const ASSETS: Record<string, { file: string; type: string }> = {
  'pico.min.css': { file: require.resolve('@picocss/pico/css/pico.min.css'), type: 'text/css; charset=utf-8' },
  'htmx.min.js': { file: require.resolve('htmx.org/dist/htmx.min.js'), type: 'text/javascript; charset=utf-8' },
  'dashboard.css': { file: new URL('./assets/dashboard.css', import.meta.url).pathname, type: 'text/css; charset=utf-8' },
  'dashboard.js': { file: new URL('./assets/dashboard.js', import.meta.url).pathname, type: 'text/javascript; charset=utf-8' },
};

/** Messages shown after an action's redirect (`?done=`): fixed texts, so the URL carries nothing else. */
const DONE: Record<string, string> = {
  'sync-queued': 'Sync queued: it runs in the background.',
  'connection-deleted': 'The connection and its synced data were deleted.',
  'key-revoked': 'The API key was revoked: calls with it are refused from now on.',
  'link-revoked': 'The magic link was revoked.',
  'signed-out': 'You are signed out.',
  'session-key-revoked': 'The API key of your session was revoked: sign in with another key.',
};

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const newNonce = () => randomBytes(16).toString('base64');

/**
 * The operator dashboard, registered under /dashboard: server-rendered pages for the project of the API key an
 * operator signed in with. The key is posted once; the browser then holds only an HttpOnly, SameSite=Strict
 * session cookie (Secure on https) whose session lives in the database and ends with the key. Every form
 * carries a CSRF token (@fastify/csrf-protection, its secret in a signed cookie). Reads and writes go
 * through the core services, scoped to the session's project.
 */
export const dashboardRoutes: FastifyPluginAsync<DashboardOptions> = async (app, { services, jobs, publicUrl }) => {
  const dash = services.dashboard;
  const signInFailures = new FailedAuthLimit(SIGN_IN_FAILURES_PER_MINUTE);

  await acceptForms(app);
  await app.register(fastifyCookie, { secret: dash.cookieSecret });
  await app.register(fastifySession, {
    secret: dash.cookieSecret,
    cookieName: 'omniport_dashboard',
    store: dash.sessions,
    saveUninitialized: false,
    rolling: false,
    // Secure is set per sign-in (on https); the library's 'auto' would turn SameSite to Lax on http.
    cookie: { path: '/dashboard', httpOnly: true, sameSite: 'strict', secure: false, maxAge: dash.sessionLifetimeMs },
  });
  await app.register(fastifyCsrf, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: 'omniport_dashboard_csrf',
    cookieOpts: { path: '/dashboard', httpOnly: true, sameSite: 'strict', signed: true },
  });

  // @fastify/session never sends a Secure cookie on a request it sees as http, so the request decides.
  const overHttps = (request: FastifyRequest) => request.protocol === 'https';
  const signedIn = (request: FastifyRequest) => Boolean(request.session?.apiKeyId && request.session.projectId && request.session.userId);

  function sendHtml(reply: FastifyReply, status: number, nonce: string, body: string) {
    return reply.status(status).headers(htmlPageHeaders(nonce, { fetchSelf: true })).send(body);
  }

  app.setErrorHandler((err: FastifyError, request, reply) => {
    const nonce = newNonce();
    const code = (err as { code?: string }).code;
    if (code === 'FST_CSRF_INVALID_TOKEN' || code === 'FST_CSRF_MISSING_SECRET') {
      return sendHtml(reply, 403, nonce, errorPage({ nonce, signedIn: signedIn(request), title: 'This form could not be accepted', text: 'It was not sent from a page of this dashboard, or the page is too old. Reload the page and send the form again.' }));
    }
    if (err instanceof AppError) {
      const title = err.code === 'not_found' ? 'Not found' : err.status >= 500 ? 'Something went wrong' : 'This could not be done';
      const text = err.code === 'not_found' ? 'It does not exist in your project (any more).' : err.message.charAt(0).toUpperCase() + err.message.slice(1);
      return sendHtml(reply, err.status, nonce, errorPage({ nonce, signedIn: signedIn(request), title, text }));
    }
    if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      return sendHtml(reply, err.statusCode, nonce, errorPage({ nonce, signedIn: signedIn(request), title: 'This request could not be handled', text: 'Go back and try again.' }));
    }
    request.log.error({ err: { message: err.message, code } }, 'dashboard page failed');
    return sendHtml(reply, 500, nonce, errorPage({ nonce, signedIn: signedIn(request), title: 'Something went wrong', text: 'Please try again in a moment.' }));
  });
  app.setNotFoundHandler((request, reply) => {
    const nonce = newNonce();
    return sendHtml(reply, 404, nonce, errorPage({ nonce, signedIn: signedIn(request), title: 'Page not found', text: 'There is no such page in the dashboard.' }));
  });

  const open = { config: { public: true }, schema: { hide: true } };
  // Authenticated by the session (the hook below), not by an API key header.
  const guarded = open;
  const withCsrf = { ...open, preHandler: app.csrfProtection };

  // Every page but sign-in and the static assets needs a live session (its API key not revoked).
  app.addHook('preHandler', async (request, reply) => {
    const url = request.routeOptions.url ?? '';
    if (url === '/dashboard/login' || url.startsWith('/dashboard/assets/') || request.is404) return;
    if (signedIn(request)) return;
    if (request.headers['hx-request']) return reply.status(401).header('hx-redirect', '/dashboard/login').send('');
    if (request.method === 'GET') return reply.redirect('/dashboard/login', 303);
    const nonce = newNonce();
    return sendHtml(reply, 401, nonce, errorPage({ nonce, signedIn: false, title: 'Signed out', text: 'Your session ended (it expired, or its API key was revoked). Sign in again.' }));
  });

  const accessOf = (request: FastifyRequest): AccessContext => ({ projectId: request.session.projectId!, userId: request.session.userId!, apiKeyId: request.session.apiKeyId! });

  async function frame(request: FastifyRequest, reply: FastifyReply, section: Section, extra: Pick<Frame, 'error'> = {}): Promise<Frame> {
    const project = await services.projects.get(accessOf(request).projectId);
    const done = str((request.query as Record<string, unknown>)?.done);
    return {
      nonce: newNonce(),
      csrf: reply.generateCsrf({ secure: overHttps(request) }),
      section,
      projectName: project.name,
      notice: done ? DONE[done] : undefined,
      ...extra,
    };
  }
  const render = (reply: FastifyReply, f: Frame, body: string, status = 200) => sendHtml(reply, status, f.nonce, body);

  function audit(request: FastifyRequest, action: string, target: AuditEntry['target'], details?: Record<string, unknown>) {
    const ctx = accessOf(request);
    return services.audit
      .record({ projectId: ctx.projectId, actor: { type: 'dashboard_session', id: ctx.apiKeyId }, action, target, requestId: request.id, sourceAddress: request.ip, details })
      .catch((err: Error) => request.log.error({ err: { message: err.message } }, 'an audit entry could not be written'));
  }

  const cursorOf = (request: FastifyRequest) => str((request.query as Record<string, unknown>)?.cursor) || undefined;
  const page = (request: FastifyRequest) => ({ limit: PAGE_SIZE, cursor: cursorOf(request) });
  const providerName = (p: string) => services.providers.get(p)?.displayName ?? p;

  /** `queued`: streams whose job waits in the queue; shown as queued instead of idle or never run. */
  function streamViews(row: ConnectionRow, states: SyncStateRow[], queued: Set<string> | undefined): StreamView[] {
    const byStream = new Map(states.filter((s) => s.connectionId === row.id).map((s) => [s.stream, s]));
    let streams: string[];
    try {
      streams = services.sync.streamsOf(row);
    } catch {
      streams = [...byStream.keys()]; // a provider no longer installed: show what was synced
    }
    return streams.map((stream) => {
      const s = byStream.get(stream);
      const status = s ? services.sync.displayStatus(s) : 'never_run';
      return {
        stream,
        // A failed stream waiting for its retry stays failed.
        status: queued?.has(stream) && (status === 'idle' || status === 'never_run') ? 'queued' : status,
        mode: s?.mode ?? null,
        records: s?.recordsInRun ?? 0,
        lastSuccessAt: s?.lastSuccessAt ?? null,
        lastError: s?.lastError ?? null,
        resumesAt: s?.status === 'waiting_for_rate_limit' ? s.resumeAt : null,
      };
    });
  }

  // ————— assets and sign-in —————

  for (const [name, asset] of Object.entries(ASSETS)) {
    const body = fs.readFileSync(asset.file);
    app.get(`/assets/${name}`, open, async (_request, reply) =>
      reply.headers({ 'content-type': asset.type, 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' }).send(body),
    );
  }

  app.get('/', guarded, async (_request, reply) => reply.redirect('/dashboard/connections', 303));

  app.get('/login', open, async (request, reply) => {
    if (signedIn(request)) return reply.redirect('/dashboard/connections', 303);
    const nonce = newNonce();
    const done = str((request.query as Record<string, unknown>)?.done);
    const notice = done ? DONE[done] : undefined;
    return sendHtml(reply, 200, nonce, loginPage({ nonce, csrf: reply.generateCsrf({ secure: overHttps(request) }), notice }));
  });

  app.post('/login', withCsrf, async (request, reply) => {
    const nonce = newNonce();
    const csrf = reply.generateCsrf({ secure: overHttps(request) });
    const attempted = (formOf(request.body).api_key ?? '').trim();
    const access = await services.apiKeys.authenticate(attempted);
    if (!access) {
      // Counted per address and per attempted key prefix; the right key still signs in past either budget.
      const keys = [request.ip, attemptedKeyPrefix(attempted)];
      const retry = await signInFailures.retryAfter(keys);
      await signInFailures.fail(keys);
      if (retry !== undefined) {
        reply.header('retry-after', String(retry));
        return sendHtml(reply, 429, nonce, loginPage({ nonce, csrf, error: `Too many failed sign-ins. Try again in ${retry} s.` }));
      }
      return sendHtml(reply, 401, nonce, loginPage({ nonce, csrf, error: 'This API key is not valid (unknown, mistyped or revoked).' }));
    }
    // A new session id at sign-in, so an id planted before cannot be used after it.
    await request.session.regenerate();
    request.session.options({ secure: overHttps(request) });
    request.session.projectId = access.projectId;
    request.session.userId = access.userId;
    request.session.apiKeyId = access.apiKeyId;
    return reply.redirect('/dashboard/connections', 303);
  });

  app.post('/logout', withCsrf, async (request, reply) => {
    await request.session.destroy();
    return reply.redirect('/dashboard/login?done=signed-out', 303);
  });

  // ————— connections —————

  app.get('/connections', guarded, async (request, reply) => {
    const ctx = accessOf(request);
    const list = await services.connections.list(ctx, page(request), {});
    const rows = list.items.map((v) => v.row);
    const [states, users, queued] = await Promise.all([
      dash.repo.syncStatesOf(ctx.projectId, rows.map((r) => r.id)),
      dash.repo.linkedUsersOf(ctx.projectId, rows.map((r) => r.linkedUserId)),
      jobs.queuedStreams(rows.map((r) => r.id)),
    ]);
    const usersById = new Map(users.map((u) => [u.id, u]));
    const summaries = rows.map((row) => ({ row, linkedUser: usersById.get(row.linkedUserId), streams: streamViews(row, states, queued.get(row.id)) }));
    const f = await frame(request, reply, 'connections');
    return render(reply, f, connectionsPage(f, summaries, list.nextCursor, providerName));
  });

  async function connectionOf(request: FastifyRequest) {
    const { row } = await services.connections.get(accessOf(request), (request.params as { id: string }).id);
    return row;
  }

  /**
   * The sync section; `since` (ms) follows a sync asked for then until every stream succeeded after it. Right
   * after queuing (`justQueued`) it always follows: a run that ended within the last second is not the one queued.
   */
  async function syncFragment(request: FastifyRequest, reply: FastifyReply, row: ConnectionRow, since: number | undefined, csrf?: string, notice?: string, justQueued = false) {
    const [states, queued] = await Promise.all([services.sync.status(row.id), jobs.queuedStreams([row.id])]);
    const streams = streamViews(row, states, queued.get(row.id));
    const following =
      since !== undefined &&
      (justQueued || (Date.now() - since < FOLLOW_SYNC_MS && streams.some((s) => !(s.lastSuccessAt && s.lastSuccessAt.getTime() >= since - 1000) && s.status !== 'failed')));
    return syncSection({
      connectionId: row.id,
      streams,
      csrf: csrf ?? reply.generateCsrf({ secure: overHttps(request) }),
      canSync: row.status === 'valid',
      notice,
      followSince: following ? since : undefined,
    });
  }

  app.get('/connections/:id', guarded, async (request, reply) => {
    const row = await connectionOf(request);
    const f = await frame(request, reply, 'connections');
    const [linkedUser, calls] = await Promise.all([services.linkedUsers.get(accessOf(request), row.linkedUserId), dash.calls.list(accessOf(request), row.id)]);
    const since = Number(str((request.query as Record<string, unknown>).since)) || undefined;
    const sync = await syncFragment(request, reply, row, since, f.csrf);
    return render(reply, f, connectionPage(f, { row, providerName: providerName(row.provider), linkedUser, sync, calls }));
  });

  app.get('/connections/:id/sync', guarded, async (request, reply) => {
    const row = await connectionOf(request);
    const since = Number(str((request.query as Record<string, unknown>).since)) || undefined;
    return reply.headers({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).send((await syncFragment(request, reply, row, since)).value);
  });

  app.post('/connections/:id/sync', withCsrf, async (request, reply) => {
    const row = await connectionOf(request);
    if (row.status !== 'valid') throw new AppError('needs_reauth', `the ${row.provider} connection needs to be authorised again: create a reconnect link`);
    const since = Date.now();
    await jobs.enqueueAll(row.id);
    await audit(request, 'sync.requested', { type: 'connection', id: row.id }, { full: false });
    if (request.headers['hx-request']) {
      const fragment = await syncFragment(request, reply, row, since, undefined, DONE['sync-queued'], true);
      return reply.headers({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).send(fragment.value);
    }
    return reply.redirect(`/dashboard/connections/${row.id}?done=sync-queued&since=${since}`, 303);
  });

  app.post('/connections/:id/reconnect', withCsrf, async (request, reply) => {
    const ctx = accessOf(request);
    const row = await connectionOf(request);
    const linkedUser = await services.linkedUsers.get(ctx, row.linkedUserId);
    const created = await services.magicLinks.create(ctx, { linked_user_origin_id: linkedUser.originId, providers: [row.provider] }, publicBase(request, publicUrl));
    await audit(request, 'magic_link.created', { type: 'magic_link', id: created.link.id }, { id_linked_user: linkedUser.id, providers: [row.provider], reconnect: row.id });
    const f = await frame(request, reply, 'connections');
    const [calls, sync] = await Promise.all([dash.calls.list(ctx, row.id), syncFragment(request, reply, row, undefined, f.csrf)]);
    return render(reply, f, connectionPage(f, { row, providerName: providerName(row.provider), linkedUser, sync, calls, reconnectUrl: created.url }));
  });

  app.post('/connections/:id/delete', withCsrf, async (request, reply) => {
    const row = await connectionOf(request);
    if (formOf(request.body).confirm !== 'yes') throw new AppError('validation_failed', 'tick the box to confirm the deletion', { field: 'confirm' });
    await services.connections.delete(accessOf(request), row.id);
    await audit(request, 'connection.deleted', { type: 'connection', id: row.id }, { provider: row.provider, id_linked_user: row.linkedUserId });
    return reply.redirect('/dashboard/connections?done=connection-deleted', 303);
  });

  // ————— linked users —————

  app.get('/linked-users', guarded, async (request, reply) => {
    const ctx = accessOf(request);
    const list = await services.linkedUsers.list(ctx, page(request), {});
    const counts = await dash.repo.connectionCountsOf(ctx.projectId, list.items.map((u) => u.id));
    const f = await frame(request, reply, 'linked-users');
    return render(reply, f, linkedUsersPage(f, list.items.map((row) => ({ row, connections: counts.get(row.id) ?? 0 })), list.nextCursor));
  });

  // ————— magic links —————

  async function magicLinks(request: FastifyRequest, reply: FastifyReply, o: { created?: string; form?: MagicLinkForm; error?: string; fieldError?: string; status?: number } = {}) {
    const list = await services.magicLinks.list(accessOf(request), page(request), {});
    const f = await frame(request, reply, 'magic-links', { error: o.error });
    return render(reply, f, magicLinksPage(f, { links: list.items, nextCursor: list.nextCursor, created: o.created, form: o.form, fieldError: o.fieldError }), o.status);
  }

  app.get('/magic-links', guarded, (request, reply) => magicLinks(request, reply));

  app.post('/magic-links', withCsrf, async (request, reply) => {
    const form = formOf(request.body);
    const input = {
      linked_user_origin_id: (form.linked_user_origin_id ?? '').trim(),
      alias: form.alias?.trim() || undefined,
      email: form.email?.trim() || undefined,
    };
    if (!input.linked_user_origin_id || input.linked_user_origin_id.length > 255) {
      return magicLinks(request, reply, { form: input, status: 400, error: 'Please correct the field marked below.', fieldError: 'Enter the id your application gives this customer (at most 255 characters).' });
    }
    try {
      const created = await services.magicLinks.create(accessOf(request), input, publicBase(request, publicUrl));
      await audit(request, 'magic_link.created', { type: 'magic_link', id: created.link.id }, { id_linked_user: created.linkedUser.id });
      return await magicLinks(request, reply, { created: created.url });
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      return magicLinks(request, reply, { form: input, status: err.status, error: err.message.charAt(0).toUpperCase() + err.message.slice(1) });
    }
  });

  app.post('/magic-links/:id/revoke', withCsrf, async (request, reply) => {
    const { id } = request.params as { id: string };
    const revoked = await services.magicLinks.revoke(accessOf(request), id);
    await audit(request, 'magic_link.revoked', { type: 'magic_link', id: revoked.link.id });
    return reply.redirect('/dashboard/magic-links?done=link-revoked', 303);
  });

  // ————— API keys —————

  async function apiKeys(request: FastifyRequest, reply: FastifyReply, o: { created?: { name: string; apiKey: string }; name?: string; error?: string; fieldError?: string; status?: number } = {}) {
    const ctx = accessOf(request);
    const list = await services.apiKeys.list(ctx, page(request));
    const f = await frame(request, reply, 'api-keys', { error: o.error });
    return render(reply, f, apiKeysPage(f, { keys: list.items, nextCursor: list.nextCursor, currentKeyId: ctx.apiKeyId, created: o.created, name: o.name, fieldError: o.fieldError }), o.status);
  }

  app.get('/api-keys', guarded, (request, reply) => apiKeys(request, reply));

  app.post('/api-keys', withCsrf, async (request, reply) => {
    const ctx = accessOf(request);
    const name = (formOf(request.body).name ?? '').trim();
    if (!name || name.length > 100) {
      return apiKeys(request, reply, { name, status: 400, error: 'Please correct the field marked below.', fieldError: 'Give the key a name of 1 to 100 characters.' });
    }
    const issued = await services.apiKeys.generate(ctx, { projectId: ctx.projectId, userId: ctx.userId, keyName: name });
    await audit(request, 'api_key.created', { type: 'api_key', id: issued.row.id }, { key_name: name });
    return apiKeys(request, reply, { created: { name, apiKey: issued.apiKey } });
  });

  app.post('/api-keys/:id/revoke', withCsrf, async (request, reply) => {
    const ctx = accessOf(request);
    const revoked = await services.apiKeys.revoke(ctx, (request.params as { id: string }).id);
    await audit(request, 'api_key.revoked', { type: 'api_key', id: revoked.id }, { key_name: revoked.name });
    if (revoked.id === ctx.apiKeyId) {
      await request.session.destroy();
      return reply.redirect('/dashboard/login?done=session-key-revoked', 303);
    }
    return reply.redirect('/dashboard/api-keys?done=key-revoked', 303);
  });

  // ————— field mappings and webhooks —————

  app.get('/field-mappings', guarded, async (request, reply) => {
    const ctx = accessOf(request);
    const [attributes, mappings] = await Promise.all([
      services.fieldMapping.listAttributes(ctx, { limit: 1000 }, {}),
      services.fieldMapping.listMappings(ctx, { limit: 1000 }, {}),
    ]);
    const users = await dash.repo.linkedUsersOf(ctx.projectId, mappings.items.map((m) => m.linkedUserId));
    const f = await frame(request, reply, 'field-mappings');
    return render(reply, f, fieldMappingsPage(f, { attributes: attributes.items, mappings: mappings.items, users: new Map(users.map((u) => [u.id, u])) }));
  });

  app.get('/webhooks', guarded, async (request, reply) => {
    const list = await services.webhooks.list(accessOf(request), page(request));
    const f = await frame(request, reply, 'webhooks');
    return render(reply, f, webhooksPage(f, list.items, list.nextCursor));
  });

  app.get('/webhooks/:id', guarded, async (request, reply) => {
    const ctx = accessOf(request);
    const { id } = request.params as { id: string };
    const endpoint = await services.webhooks.get(ctx, id);
    const deliveries = await services.webhooks.deliveries(ctx, id, page(request));
    const f = await frame(request, reply, 'webhooks');
    return render(reply, f, deliveriesPage(f, endpoint, deliveries.items, deliveries.nextCursor));
  });
};
