import { html, type SafeHtml } from '../connect/html';
import type { ApiKeyRow, ConnectionRow, LinkedUserRow } from '../store/control-plane.repo';
import type { InviteLinkRow, InviteLinkStatus } from '../store/connect.repo';
import type { ProviderCallRow } from '../store/dashboard.repo';
import type { WebhookAttemptRow, WebhookDeliveryRow, WebhookEndpointRow } from '../store/webhooks.repo';
import type { AttributeRow, MappingRow } from '../store/field-mapping.repo';

/**
 * Server-rendered pages of the operator dashboard. Every value goes through `html`, which escapes it.
 * Plain forms and links do everything; htmx (when scripts run) refreshes the sync section while a sync
 * runs and posts "Sync now" without reloading the page.
 */

export const NAV = [
  ['connections', 'Connections'],
  ['linked-users', 'Linked users'],
  ['magic-links', 'Magic links'],
  ['api-keys', 'API keys'],
  ['field-mappings', 'Field mappings'],
  ['webhooks', 'Webhooks'],
] as const;
export type Section = (typeof NAV)[number][0];

/** What every page of a signed-in operator carries. */
export interface Frame {
  nonce: string;
  csrf: string;
  section: Section;
  projectName: string;
  /** A message after a redirect (an action done) or an error to show above the content. */
  notice?: string;
  error?: string;
}

function head(title: string, nonce: string): SafeHtml {
  return html`<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="htmx-config" content='{"includeIndicatorStyles":false,"allowEval":false,"allowScriptTags":false,"historyCacheSize":0}'>
<title>${title} · Omniport dashboard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/dashboard/assets/pico.min.css" nonce="${nonce}">
<link rel="stylesheet" href="/dashboard/assets/dashboard.css" nonce="${nonce}">
<script src="/dashboard/assets/htmx.min.js" nonce="${nonce}" defer></script>
<script src="/dashboard/assets/dashboard.js" nonce="${nonce}" defer></script>
</head>`;
}

export const csrfField = (csrf: string) => html`<input type="hidden" name="_csrf" value="${csrf}">`;

function alerts(f: { notice?: string; error?: string }): SafeHtml {
  return html`${f.notice ? html`<p class="notice" role="status">${f.notice}</p>` : ''}${f.error ? html`<p class="error" role="alert" id="error-summary" tabindex="-1">${f.error}</p>` : ''}`;
}

export function page(f: Frame, title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en" data-theme="light">
${head(title, f.nonce)}
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="container">
<nav aria-label="Dashboard">
<ul><li><a href="/dashboard/connections" class="brand"><strong>Omniport</strong></a> <small class="muted">${f.projectName}</small></li></ul>
<ul class="sections">
${NAV.map(([key, label]) => html`<li><a href="/dashboard/${key}"${key === f.section ? html` aria-current="page"` : ''}>${label}</a></li>`)}
<li><form method="post" action="/dashboard/logout" class="inline">${csrfField(f.csrf)}<button type="submit" class="secondary outline small">Sign out</button></form></li>
</ul>
</nav>
</header>
<main id="main" class="container">
<h1>${title}</h1>
${alerts(f)}
${body}
</main>
</body>
</html>`.value;
}

export function loginPage(o: { nonce: string; csrf: string; error?: string; notice?: string }): string {
  return html`<!doctype html>
<html lang="en" data-theme="light">
${head('Sign in', o.nonce)}
<body>
<main id="main" class="container narrow">
<article>
<header><h1>Omniport dashboard</h1><p class="muted">Sign in with an API key of your project. The key is sent once, over this form; the browser keeps only a session cookie.</p></header>
${alerts(o)}
<form method="post" action="/dashboard/login">
${csrfField(o.csrf)}
<label for="api_key">API key</label>
<input id="api_key" name="api_key" type="password" autocomplete="off" spellcheck="false" placeholder="sk_live_…" required autofocus${o.error ? html` aria-invalid="true" aria-describedby="error-summary"` : ''}>
<button type="submit">Sign in</button>
</form>
</article>
</main>
</body>
</html>`.value;
}

export function errorPage(o: { nonce: string; title: string; text: string; signedIn: boolean }): string {
  return html`<!doctype html>
<html lang="en" data-theme="light">
${head(o.title, o.nonce)}
<body>
<main id="main" class="container narrow">
<article>
<h1>${o.title}</h1>
<p>${o.text}</p>
<a href="${o.signedIn ? '/dashboard/connections' : '/dashboard/login'}">${o.signedIn ? 'Back to the dashboard' : 'Sign in'}</a>
</article>
</main>
</body>
</html>`.value;
}

// ————— helpers —————

export function when(d: Date | null | undefined): SafeHtml {
  if (!d) return html`<span class="muted">never</span>`;
  const iso = d.toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 19).replace('T', ' ')} UTC</time>`;
}

const badge = (text: string, tone: 'ok' | 'warn' | 'bad' | 'busy' | 'idle') => html`<span class="badge ${tone}">${text.replace(/_/g, ' ')}</span>`;

const connectionTone = (status: string) => (status === 'valid' ? 'ok' : status === 'needs_reauth' ? 'bad' : 'idle');
export function streamTone(status: string) {
  if (status === 'idle') return 'ok' as const;
  if (status === 'running' || status === 'queued') return 'busy' as const;
  if (status === 'failed' || status === 'stalled') return 'bad' as const;
  if (status === 'waiting_for_rate_limit') return 'warn' as const;
  return 'idle' as const;
}

const userLabel = (u: LinkedUserRow | undefined) => (u ? html`${u.alias ?? u.originId}${u.alias ? html` <small class="muted">${u.originId}</small>` : ''}` : html`<span class="muted">unknown</span>`);

function table(caption: string, headings: string[], rows: SafeHtml[], empty: string): SafeHtml {
  if (rows.length === 0) return html`<p class="empty">${empty}</p>`;
  return html`<div class="table-scroll" tabindex="0" role="region" aria-label="${caption}"><table class="striped">
<caption class="visually-hidden">${caption}</caption>
<thead><tr>${headings.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>${rows}</tbody>
</table></div>`;
}

function moreLink(section: string, nextCursor: string | null): SafeHtml {
  return nextCursor ? html`<p><a href="/dashboard/${section}?cursor=${encodeURIComponent(nextCursor)}">Next page</a></p>` : html``;
}

/** A secret shown once, with a copy button (the field is selectable without JavaScript). */
function shownOnce(label: string, value: string, hint: string): SafeHtml {
  return html`<article class="once" aria-labelledby="once-label">
<h2 id="once-label">${label}</h2>
<p>${hint}</p>
<div class="copy-row">
<input id="once-value" type="text" readonly value="${value}" aria-label="${label}">
<button type="button" data-copy="once-value" hidden>Copy</button>
</div>
</article>`;
}

// ————— connections —————

export interface StreamView {
  stream: string;
  status: string;
  mode: string | null;
  records: number;
  lastSuccessAt: Date | null;
  lastError: string | null;
  resumesAt: Date | null;
}

export interface ConnectionSummary {
  row: ConnectionRow;
  linkedUser: LinkedUserRow | undefined;
  streams: StreamView[];
}

function syncSummary(streams: StreamView[]): { text: string; tone: ReturnType<typeof streamTone>; lastSync: Date | null; errors: string[] } {
  const running = streams.filter((s) => s.status === 'running' || s.status === 'queued').length;
  const failed = streams.filter((s) => s.status === 'failed' || s.status === 'stalled').length;
  const waiting = streams.filter((s) => s.status === 'waiting_for_rate_limit').length;
  const never = streams.filter((s) => s.status === 'never_run').length;
  const done = streams.filter((s) => s.lastSuccessAt).map((s) => s.lastSuccessAt!.getTime());
  const lastSync = done.length === streams.length && done.length ? new Date(Math.min(...done)) : null;
  const errors = streams.filter((s) => s.lastError).map((s) => `${s.stream}: ${s.lastError}`);
  if (running) return { text: `syncing (${streams.length - running}/${streams.length} streams done)`, tone: 'busy', lastSync, errors };
  if (failed) return { text: `${failed} stream${failed > 1 ? 's' : ''} failed`, tone: 'bad', lastSync, errors };
  if (waiting) return { text: 'waiting for rate limit', tone: 'warn', lastSync, errors };
  if (never === streams.length) return { text: 'not synced yet', tone: 'idle', lastSync, errors };
  return { text: 'synced', tone: 'ok', lastSync, errors };
}

export function connectionsPage(f: Frame, list: ConnectionSummary[], nextCursor: string | null, providerName: (p: string) => string): string {
  const rows = list.map((c) => {
    const s = syncSummary(c.streams);
    return html`<tr>
<th scope="row"><a href="/dashboard/connections/${c.row.id}">${providerName(c.row.provider)}</a><br><small class="muted">${c.row.vertical}</small></th>
<td>${userLabel(c.linkedUser)}</td>
<td>${badge(c.row.status, connectionTone(c.row.status))}</td>
<td>${badge(s.text, s.tone)}</td>
<td>${when(s.lastSync)}</td>
<td>${s.errors.length ? html`<span class="bad-text">${s.errors[0]}</span>${s.errors.length > 1 ? html` <small>(+${s.errors.length - 1})</small>` : ''}` : html`<span class="muted">none</span>`}</td>
</tr>`;
  });
  return page(
    f,
    'Connections',
    html`<p class="muted">Each connection is one linked user's account at a provider. Open one to see its sync, its recent provider calls, to sync now, reconnect or delete it.</p>
${table('Connections', ['Provider', 'Linked user', 'Status', 'Sync', 'Last complete sync', 'Errors'], rows, 'No connection yet. Create a magic link and send it to a customer, or POST /connections with the API.')}
${moreLink('connections', nextCursor)}`,
  );
}

/**
 * The sync of a connection. `followSince` (ms): a sync asked for then is followed, its progress counting
 * the streams that succeeded since; otherwise the streams not running count as done.
 */
export function syncSection(o: { connectionId: string; streams: StreamView[]; csrf: string; canSync: boolean; notice?: string; followSince?: number }): SafeHtml {
  // Queued streams are about to run: the section keeps refreshing for them too.
  const busy = (s: StreamView) => s.status === 'running' || s.status === 'queued' || s.status === 'waiting_for_rate_limit';
  const since = o.followSince;
  // Outside a followed sync, only streams whose last run succeeded count as synced: a failed one never does.
  const done =
    since !== undefined
      ? o.streams.filter((s) => (s.lastSuccessAt && s.lastSuccessAt.getTime() >= since - 1000) || s.status === 'failed').length
      : o.streams.filter((s) => s.status === 'idle' && s.lastSuccessAt).length;
  const failed = o.streams.filter((s) => s.status === 'failed' || s.status === 'stalled').length;
  const running = since !== undefined || o.streams.some(busy);
  const url = `/dashboard/connections/${o.connectionId}/sync`;
  const pollUrl = since !== undefined ? `${url}?since=${since}` : url;
  const rows = o.streams.map(
    (s) => html`<tr>
<th scope="row">${s.stream}</th>
<td>${badge(s.status, streamTone(s.status))}${s.resumesAt ? html`<br><small>resumes ${when(s.resumesAt)}</small>` : ''}</td>
<td>${s.mode ?? html`<span class="muted">–</span>`}</td>
<td class="num">${s.records.toLocaleString('en')}${s.status === 'running' ? html`<progress aria-label="${s.stream} syncing"></progress>` : ''}</td>
<td>${when(s.lastSuccessAt)}</td>
<td>${s.lastError ? html`<span class="bad-text">${s.lastError}</span>` : html`<span class="muted">none</span>`}</td>
</tr>`,
  );
  // While a run goes on, htmx asks for this section again every 2 s (and stops once nothing runs).
  return html`<section id="sync" aria-labelledby="sync-title"${running ? html` hx-get="${pollUrl}" hx-trigger="every 2s" hx-swap="outerHTML"` : ''}>
<h2 id="sync-title">Sync</h2>
${o.notice ? html`<p class="notice" role="status">${o.notice}</p>` : ''}
<div class="progress-line">
<progress id="sync-progress" value="${done}" max="${Math.max(1, o.streams.length)}" aria-describedby="sync-progress-text"></progress>
<span id="sync-progress-text" aria-live="polite">${running ? `Syncing: ${done} of ${o.streams.length} streams done` : `${done} of ${o.streams.length} streams synced`}${failed ? `, ${failed} failed` : ''}</span>
</div>
${table('Sync streams', ['Stream', 'State', 'Mode', 'Records (run)', 'Last success', 'Last error'], rows, 'This provider has no stream to sync.')}
${
  o.canSync
    ? html`<form method="post" action="${url}" hx-post="${url}" hx-target="#sync" hx-swap="outerHTML">${csrfField(o.csrf)}<button type="submit">Sync now</button> <a href="/dashboard/connections/${o.connectionId}" class="secondary">Refresh</a></form>`
    : html`<p class="muted">This connection must be authorised again before it can sync: create a reconnect link below.</p>`
}
</section>`;
}

export function connectionPage(
  f: Frame,
  o: { row: ConnectionRow; providerName: string; linkedUser: LinkedUserRow | undefined; sync: SafeHtml; calls: ProviderCallRow[]; reconnectUrl?: string },
): string {
  const calls = o.calls.map(
    (c) => html`<tr>
<td>${when(c.startedAt)}</td>
<td><code>${c.method}</code></td>
<td class="path"><code>${c.path}</code></td>
<td>${c.status !== null ? badge(String(c.status), c.status < 300 ? 'ok' : c.status === 429 ? 'warn' : c.status < 500 ? 'warn' : 'bad') : badge(c.error ?? 'no answer', 'bad')}</td>
<td class="num">${c.durationMs} ms</td>
<td>${rateLimitText(c.rateLimit)}</td>
</tr>`,
  );
  return page(
    f,
    `${o.providerName} connection`,
    html`${o.reconnectUrl ? shownOnce('Reconnect link', o.reconnectUrl, 'Send this link to the linked user: it opens the connect page for this provider. It is shown only now; copy it before leaving the page.') : ''}
<dl class="facts">
<dt>Provider</dt><dd>${o.providerName} <small class="muted">(${o.row.provider}, ${o.row.vertical})</small></dd>
<dt>Linked user</dt><dd>${userLabel(o.linkedUser)}</dd>
<dt>Status</dt><dd>${badge(o.row.status, connectionTone(o.row.status))}</dd>
<dt>Base URL</dt><dd>${o.row.baseUrl ? html`<code>${o.row.baseUrl}</code>` : html`<span class="muted">provider default</span>`}</dd>
<dt>Created</dt><dd>${when(o.row.createdAt)}</dd>
<dt>Id</dt><dd><code>${o.row.id}</code></dd>
</dl>
${o.sync}
<section aria-labelledby="calls-title">
<h2 id="calls-title">Recent provider calls</h2>
<p class="muted">The last 100 attempts Omniport sent to ${o.providerName} for this connection, newest first. Paths only: no header, no body, secret query values masked.</p>
${table('Recent provider calls', ['Time', 'Method', 'Path', 'Status', 'Duration', 'Rate limit'], calls, 'No call recorded yet.')}
</section>
<section aria-labelledby="manage-title" class="grid">
<h2 id="manage-title" class="visually-hidden">Manage</h2>
<article>
<h3>Reconnect</h3>
<p>Creates a new magic link for ${userLabel(o.linkedUser)} that offers only ${o.providerName}. Authorising there again updates this connection.</p>
<form method="post" action="/dashboard/connections/${o.row.id}/reconnect">${csrfField(f.csrf)}<button type="submit" class="secondary">Create reconnect link</button></form>
</article>
<article>
<h3>Delete</h3>
<p>Deletes the connection with every object synced from it. The provider account is not touched.</p>
<form method="post" action="/dashboard/connections/${o.row.id}/delete" data-confirm="Delete this ${o.providerName} connection and all its synced data?">
${csrfField(f.csrf)}
<label><input type="checkbox" name="confirm" value="yes" required> I understand the synced data is deleted</label>
<button type="submit" class="contrast">Delete connection</button>
</form>
</article>
</section>`,
  );
}

function rateLimitText(rl: ProviderCallRow['rateLimit']): SafeHtml {
  if (!rl) return html`<span class="muted">–</span>`;
  const parts: SafeHtml[] = [];
  if (rl.limited) parts.push(badge('rate-limited', 'warn'));
  if (rl.remaining !== undefined) parts.push(html`${rl.remaining} left`);
  if (rl.resetAt !== undefined) parts.push(html`<small class="muted">resets ${rl.resetAt.slice(11, 19)} UTC</small>`);
  return html`${parts.map((p, i) => html`${i ? ' ' : ''}${p}`)}`;
}

// ————— linked users —————

export function linkedUsersPage(f: Frame, users: { row: LinkedUserRow; connections: number }[], nextCursor: string | null): string {
  const rows = users.map(
    (u) => html`<tr><th scope="row"><code>${u.row.originId}</code></th><td>${u.row.alias ?? html`<span class="muted">–</span>`}</td><td>${u.row.email ?? html`<span class="muted">–</span>`}</td><td class="num">${u.connections}</td><td>${when(u.row.createdAt)}</td><td><code class="id">${u.row.id}</code></td></tr>`,
  );
  return page(
    f,
    'Linked users',
    html`<p class="muted">Your customers, by the id your application gives them (<code>linked_user_origin_id</code>). One is created with their first magic link or connection.</p>
${table('Linked users', ['Origin id', 'Alias', 'Email', 'Connections', 'Created', 'Omniport id'], rows, 'No linked user yet.')}
${moreLink('linked-users', nextCursor)}`,
  );
}

// ————— magic links —————

export interface MagicLinkForm {
  linked_user_origin_id?: string;
  alias?: string;
  email?: string;
}

export function magicLinksPage(
  f: Frame,
  o: { links: { link: InviteLinkRow; linkedUser: LinkedUserRow; status: InviteLinkStatus }[]; nextCursor: string | null; created?: string; form?: MagicLinkForm; fieldError?: string },
): string {
  const rows = o.links.map(
    ({ link, linkedUser, status }) => html`<tr>
<th scope="row">${userLabel(linkedUser)}</th>
<td>${link.providers?.join(', ') ?? html`<span class="muted">all enabled</span>`}</td>
<td>${badge(status, status === 'active' ? 'ok' : 'warn')}</td>
<td>${when(link.createdAt)}</td>
<td>${when(link.expiresAt)}</td>
<td>${status === 'active' ? html`<form method="post" action="/dashboard/magic-links/${link.id}/revoke" class="inline">${csrfField(f.csrf)}<button type="submit" class="secondary outline small">Revoke<span class="visually-hidden"> the link of ${linkedUser.originId}</span></button></form>` : ''}</td>
</tr>`,
  );
  const v = o.form ?? {};
  return page(
    f,
    'Magic links',
    html`${o.created ? shownOnce('New magic link', o.created, 'Send this link to your customer: it opens the connect page where they connect their account. It is shown only now (Omniport keeps a hash); copy it before leaving the page.') : ''}
<article>
<h2>Create a magic link</h2>
<form method="post" action="/dashboard/magic-links">
${csrfField(f.csrf)}
<div class="grid">
<div><label for="origin">Customer id in your application <small>(required)</small></label>
<input id="origin" name="linked_user_origin_id" required maxlength="255" value="${v.linked_user_origin_id ?? ''}"${o.fieldError ? html` aria-invalid="true" aria-describedby="origin-error"` : ''}>
${o.fieldError ? html`<small id="origin-error" class="bad-text">${o.fieldError}</small>` : ''}</div>
<div><label for="alias">Name <small>(optional)</small></label><input id="alias" name="alias" maxlength="255" value="${v.alias ?? ''}"></div>
<div><label for="email">Email <small>(optional)</small></label><input id="email" name="email" type="email" maxlength="320" value="${v.email ?? ''}"></div>
</div>
<button type="submit">Create link</button>
</form>
</article>
<h2>Links</h2>
${table('Magic links', ['Linked user', 'Providers', 'Status', 'Created', 'Expires', ''], rows, 'No magic link yet.')}
${moreLink('magic-links', o.nextCursor)}`,
  );
}

// ————— API keys —————

export function apiKeysPage(f: Frame, o: { keys: ApiKeyRow[]; nextCursor: string | null; currentKeyId: string; created?: { name: string; apiKey: string }; name?: string; fieldError?: string }): string {
  const rows = o.keys.map(
    (k) => html`<tr>
<th scope="row">${k.name}${k.id === o.currentKeyId ? html` <small class="badge idle">this session</small>` : ''}</th>
<td><code>${k.keyPrefix}…</code></td>
<td>${k.revokedAt ? badge('revoked', 'bad') : badge('active', 'ok')}</td>
<td>${when(k.createdAt)}</td>
<td>${when(k.lastUsedAt)}</td>
<td>${k.revokedAt ? when(k.revokedAt) : html`<form method="post" action="/dashboard/api-keys/${k.id}/revoke" class="inline" data-confirm="${k.id === o.currentKeyId ? 'Revoke the key of this session? You will be signed out.' : `Revoke the key ${k.name}? Calls with it will be refused at once.`}">${csrfField(f.csrf)}<button type="submit" class="secondary outline small">Revoke<span class="visually-hidden"> ${k.name}</span></button></form>`}</td>
</tr>`,
  );
  return page(
    f,
    'API keys',
    html`${o.created ? shownOnce(`New API key “${o.created.name}”`, o.created.apiKey, 'Store it in your application’s secrets now: it is shown only once (Omniport keeps a hash).') : ''}
<article>
<h2>Create an API key</h2>
<form method="post" action="/dashboard/api-keys">
${csrfField(f.csrf)}
<label for="key-name">Name</label>
<input id="key-name" name="name" required maxlength="100" placeholder="production backend" value="${o.name ?? ''}"${o.fieldError ? html` aria-invalid="true" aria-describedby="name-error"` : ''}>
${o.fieldError ? html`<small id="name-error" class="bad-text">${o.fieldError}</small>` : ''}
<button type="submit">Create key</button>
</form>
</article>
<h2>Keys</h2>
${table('API keys', ['Name', 'Key', 'Status', 'Created', 'Last used', 'Revoked'], rows, 'No API key.')}
${moreLink('api-keys', o.nextCursor)}`,
  );
}

// ————— field mappings —————

export function fieldMappingsPage(f: Frame, o: { attributes: AttributeRow[]; mappings: MappingRow[]; users: Map<string, LinkedUserRow> }): string {
  const names = new Map(o.attributes.map((a) => [a.id, a]));
  const attributeRows = o.attributes.map(
    (a) => html`<tr><th scope="row"><code>${a.name}</code></th><td>${a.objectTypeOwner}</td><td>${a.dataType}</td><td>${a.description ?? html`<span class="muted">–</span>`}</td><td>${when(a.createdAt)}</td></tr>`,
  );
  const mappingRows = o.mappings.map((m) => {
    const a = names.get(m.attributeId);
    return html`<tr><th scope="row"><code>${a?.name ?? m.attributeId}</code></th><td>${a?.objectTypeOwner ?? ''}</td><td>${userLabel(o.users.get(m.linkedUserId))}</td><td>${m.provider}</td><td><code>${m.sourceCustomFieldId}</code></td><td>${when(m.createdAt)}</td></tr>`;
  });
  return page(
    f,
    'Field mappings',
    html`<p class="muted">Custom attributes of your project (<code>POST /field-mapping/define</code>) and where each linked user's provider keeps them (<code>POST /field-mapping/map</code>). Their values travel in <code>field_mappings</code>.</p>
<h2>Attributes</h2>
${table('Attributes', ['Name', 'Object', 'Type', 'Description', 'Defined'], attributeRows, 'No attribute defined.')}
<h2>Mappings</h2>
${table('Mappings', ['Attribute', 'Object', 'Linked user', 'Provider', 'Provider field', 'Mapped'], mappingRows, 'No mapping yet.')}`,
  );
}

// ————— webhooks —————

export function webhooksPage(f: Frame, endpoints: WebhookEndpointRow[], nextCursor: string | null): string {
  const rows = endpoints.map(
    (e) => html`<tr>
<th scope="row"><a href="/dashboard/webhooks/${e.id}"><code>${e.url}</code></a>${e.description ? html`<br><small class="muted">${e.description}</small>` : ''}</th>
<td>${e.eventTypes.join(', ')}</td>
<td>${badge(e.status, e.status === 'enabled' ? 'ok' : 'bad')}${e.disabledReason ? html`<br><small>${e.disabledReason}</small>` : ''}</td>
<td>${e.failingSince ? when(e.failingSince) : html`<span class="muted">–</span>`}</td>
<td>${when(e.createdAt)}</td>
</tr>`,
  );
  return page(
    f,
    'Webhooks',
    html`<p class="muted">Endpoints that receive your project's events, signed (Standard Webhooks). Manage them with <code>/webhooks</code> in the API; open one to see its deliveries.</p>
${table('Webhook endpoints', ['URL', 'Events', 'Status', 'Failing since', 'Created'], rows, 'No webhook endpoint.')}
${moreLink('webhooks', nextCursor)}`,
  );
}

export function deliveriesPage(f: Frame, endpoint: WebhookEndpointRow, deliveries: { delivery: WebhookDeliveryRow; eventType: string; attempts: WebhookAttemptRow[] }[], nextCursor: string | null): string {
  const rows = deliveries.map(({ delivery: d, eventType, attempts }) => {
    const last = attempts.at(-1);
    return html`<tr>
<th scope="row"><code>${eventType}</code></th>
<td>${badge(d.status, d.status === 'delivered' ? 'ok' : d.status === 'pending' ? 'busy' : 'bad')}</td>
<td class="num">${d.attempts}</td>
<td>${d.lastStatusCode ?? html`<span class="muted">–</span>`}${last?.error ? html`<br><small class="bad-text">${last.error}</small>` : ''}</td>
<td>${when(d.createdAt)}</td>
<td>${d.deliveredAt ? when(d.deliveredAt) : d.status === 'pending' ? html`next ${when(d.nextAttemptAt)}` : html`<span class="muted">–</span>`}</td>
</tr>`;
  });
  return page(
    f,
    'Webhook deliveries',
    html`<p><a href="/dashboard/webhooks">← Webhooks</a></p>
<p>Endpoint <code>${endpoint.url}</code> ${badge(endpoint.status, endpoint.status === 'enabled' ? 'ok' : 'bad')}</p>
${table('Deliveries', ['Event', 'Status', 'Attempts', 'Last answer', 'Created', 'Delivered'], rows, 'No delivery yet.')}
${nextCursor ? html`<p><a href="/dashboard/webhooks/${endpoint.id}?cursor=${encodeURIComponent(nextCursor)}">Next page</a></p>` : ''}`,
  );
}
