import type { ConnectableProvider, CredentialField } from '../core/connect';
import type { FlowFailure, SiteChoice } from '../core/oauth';
import type { ConnectionRow, LinkedUserRow } from '../store/control-plane.repo';
import { html, SafeHtml } from './html';

/**
 * Server-rendered pages of the hosted connect page. Plain HTML that works without JavaScript; a small
 * script (with the response's CSP nonce) adds a provider filter and disables a form while it is sent.
 * Every value goes through `html`, which escapes it.
 */

const STYLE = `
:root { color-scheme: light; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg: #f6f8fa; --accent: #0b57d0; --ok: #1a7f37; --bad: #b42318; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 34rem; margin: 3rem auto; padding: 2rem; background: #fff; border: 1px solid var(--line); border-radius: 12px; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
p.lead { color: var(--muted); margin: 0 0 1.5rem; }
ul.providers { list-style: none; padding: 0; margin: 1rem 0 0; display: grid; gap: .5rem; }
a.provider { display: flex; align-items: center; gap: .75rem; padding: .75rem; border: 1px solid var(--line); border-radius: 8px; color: inherit; text-decoration: none; }
a.provider:hover { border-color: var(--accent); background: #f0f5ff; }
.logo { flex: none; width: 2.5rem; height: 2.5rem; border-radius: 8px; display: inline-grid; place-items: center; font-weight: 700; color: #fff; letter-spacing: .02em; }
.logo-0 { background: #0b57d0; } .logo-1 { background: #1a7f37; } .logo-2 { background: #8250df; } .logo-3 { background: #bf3989; }
.logo-4 { background: #9a6700; } .logo-5 { background: #0a7285; } .logo-6 { background: #cf222e; } .logo-7 { background: #57606a; }
.name { font-weight: 600; } .meta { color: var(--muted); font-size: .875rem; }
.badge { margin-left: auto; font-size: .8rem; padding: .1rem .5rem; border-radius: 999px; border: 1px solid currentColor; white-space: nowrap; }
.badge.ok { color: var(--ok); } .badge.warn { color: var(--bad); }
label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
.help { color: var(--muted); font-size: .875rem; margin: 0 0 .25rem; }
input[type=text], input[type=email], input[type=password], input[type=url], input[type=search] { width: 100%; padding: .6rem .7rem; font: inherit; border: 1px solid #8c959f; border-radius: 6px; }
input[aria-invalid=true] { border-color: var(--bad); }
.field-error { color: var(--bad); font-size: .875rem; margin: .25rem 0 0; }
button, a.button { display: inline-block; margin-top: 1.5rem; padding: .65rem 1.2rem; font: inherit; font-weight: 600; color: #fff; background: var(--accent); border: 0; border-radius: 6px; cursor: pointer; text-decoration: none; }
button[disabled] { opacity: .6; cursor: progress; }
a.secondary { display: inline-block; margin-top: 1rem; color: var(--accent); }
:focus-visible { outline: 3px solid #fb8c00; outline-offset: 2px; }
.alert { padding: .75rem 1rem; border-radius: 8px; border: 1px solid var(--bad); color: var(--bad); background: #fff5f5; margin: 1rem 0; }
.success { font-size: 3rem; line-height: 1; color: var(--ok); margin: 0 0 .5rem; }
.or { margin: 1.5rem 0 0; padding-top: 1rem; border-top: 1px solid var(--line); }
fieldset.sites { border: 0; padding: 0; margin: 1rem 0 0; display: grid; gap: .5rem; }
label.site { display: flex; align-items: center; gap: .75rem; margin: 0; padding: .75rem; border: 1px solid var(--line); border-radius: 8px; font-weight: 400; cursor: pointer; }
label.site:has(input:checked) { border-color: var(--accent); background: #f0f5ff; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
footer { text-align: center; color: var(--muted); font-size: .8rem; margin: -2rem 0 2rem; }
`;

const SCRIPT = `
(function () {
  var filter = document.getElementById('provider-filter');
  if (filter) {
    filter.hidden = false;
    var input = filter.querySelector('input');
    var items = document.querySelectorAll('[data-provider-name]');
    var count = document.getElementById('provider-count');
    input.addEventListener('input', function () {
      var q = input.value.trim().toLowerCase(); var shown = 0;
      items.forEach(function (li) { var match = li.getAttribute('data-provider-name').indexOf(q) !== -1; li.hidden = !match; if (match) shown++; });
      count.textContent = shown + (shown === 1 ? ' provider' : ' providers');
    });
  }
  document.querySelectorAll('form[data-busy]').forEach(function (form) {
    form.addEventListener('submit', function () {
      var button = form.querySelector('button[type=submit]');
      if (button) { button.disabled = true; button.textContent = form.getAttribute('data-busy'); }
    });
  });
  var summary = document.getElementById('error-summary');
  if (summary) summary.focus();
})();
`;

export interface PageOptions {
  title: string;
  nonce: string;
  body: SafeHtml;
}

export function layout({ title, nonce, body }: PageOptions): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${title} · Omniport</title>
<style nonce="${nonce}">${new SafeHtml(STYLE)}</style>
</head>
<body>
<main id="main">
${body}
</main>
<footer>Secured by Omniport</footer>
<script nonce="${nonce}">${new SafeHtml(SCRIPT)}</script>
</body>
</html>`;
}

/** Initials on a coloured square: a logo without loading images from anywhere. */
export function logo(displayName: string): SafeHtml {
  const words = displayName.replace(/\(.*?\)/g, '').trim().split(/\s+/).filter(Boolean);
  const initials = (words.length > 1 ? words[0]![0]! + words[1]![0]! : (words[0] ?? '?').slice(0, 2)).toUpperCase();
  let hash = 0;
  for (const ch of displayName) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return html`<span class="logo logo-${hash % 8}" aria-hidden="true">${initials}</span>`;
}

const whoFor = (linkedUser: LinkedUserRow) => linkedUser.alias || linkedUser.email || null;

export function providerListPage(o: {
  nonce: string;
  linkToken: string;
  linkedUser: LinkedUserRow;
  providers: ConnectableProvider[];
  connections: ConnectionRow[];
  expiresAt: Date;
}): SafeHtml {
  const statusOf = (name: string) => {
    const mine = o.connections.filter((c) => c.provider === name);
    if (mine.some((c) => c.status === 'valid')) return html`<span class="badge ok">Connected</span>`;
    if (mine.length > 0) return html`<span class="badge warn">Needs reconnecting</span>`;
    return null;
  };
  const who = whoFor(o.linkedUser);
  const body = html`
<h1>Connect your account</h1>
<p class="lead">${who ? html`For <strong>${who}</strong>. ` : null}Choose the product you use; you will sign in to it or enter an API token.</p>
<div id="provider-filter" hidden>
  <label for="filter">Find a product</label>
  <input id="filter" type="search" autocomplete="off" aria-describedby="provider-count">
</div>
<p id="provider-count" class="meta" aria-live="polite">${o.providers.length} ${o.providers.length === 1 ? 'provider' : 'providers'}</p>
${o.providers.length === 0 ? html`<p class="alert" role="status">No product can be connected with this link at the moment. Please tell the sender of the link.</p>` : null}
<ul class="providers">
${o.providers.map(
  (p) => html`<li data-provider-name="${p.manifest.displayName.toLowerCase()} ${p.manifest.name}">
  <a class="provider" href="/connect/${o.linkToken}/providers/${p.manifest.name}">
    ${logo(p.manifest.displayName)}
    <span><span class="name">${p.manifest.displayName}</span><br><span class="meta">${capitalise(p.manifest.vertical)} · ${p.manifest.sandbox ? 'Demo account' : p.oauth && p.form ? 'Sign in or API token' : p.oauth ? 'Sign in' : 'API token'}</span></span>
    ${statusOf(p.manifest.name)}
  </a>
</li>`,
)}
</ul>
<p class="meta">This link works until ${o.expiresAt.toUTCString()}.</p>`;
  return layout({ title: 'Connect your account', nonce: o.nonce, body });
}

export interface FormState {
  /** Values to show again (never secrets). */
  values: Record<string, string>;
  /** Field name → message. */
  errors: Record<string, string>;
  /** A message about the whole form. */
  message?: string;
}

function fieldInput(field: CredentialField, state: FormState | undefined): SafeHtml {
  const id = `f-${field.name}`;
  const error = state?.errors[field.name];
  const describedBy = [field.description ? `${id}-help` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const value = field.type === 'password' ? '' : (state?.values[field.name] ?? '');
  const autocomplete = field.type === 'password' ? 'off' : field.type === 'email' ? 'email' : 'off';
  return html`
<label for="${id}">${field.label}${field.required ? null : html` <span class="meta">(optional)</span>`}</label>
${field.description ? html`<p class="help" id="${id}-help">${field.description}</p>` : null}
<input id="${id}" name="${field.name}" type="${field.type}" value="${value}" autocomplete="${autocomplete}" spellcheck="false"${field.required ? html` required` : null}${describedBy ? html` aria-describedby="${describedBy}"` : null}${error ? html` aria-invalid="true"` : null}>
${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : null}`;
}

/**
 * The login hosts a provider offers (Salesforce: production or sandbox), as a choice; and where the provider has
 * one, a login address to type instead (Salesforce My Domain), which the server checks against its hosts.
 */
function loginHostInput(p: ConnectableProvider, state: FormState | undefined): SafeHtml | null {
  const hosts = p.manifest.oauth?.loginUrls ?? [];
  if (hosts.length < 2) return null;
  const chosen = state?.values.base_url ?? hosts[0]!.url;
  const typed = p.manifest.oauth?.typedLoginHost;
  const error = state?.errors.base_url;
  return html`
<label for="oauth-base_url">Where you sign in to ${p.manifest.displayName}</label>
<select id="oauth-base_url" name="base_url">${hosts.map((h) => html`<option value="${h.url}"${h.url === chosen ? html` selected` : null}>${h.label} (${new URL(h.url).host})</option>`)}</select>
${
  typed
    ? html`<label for="oauth-login_host">${typed.label} <span class="meta">(optional)</span></label>
<p class="help" id="oauth-login_host-help">e.g. ${typed.example}</p>
<input id="oauth-login_host" name="login_host" type="url" inputmode="url" value="${state?.values.login_host ?? ''}" autocomplete="url" spellcheck="false" aria-describedby="oauth-login_host-help${error ? html` oauth-base_url-error` : null}"${error ? html` aria-invalid="true"` : null}>`
    : null
}
${error ? html`<p class="field-error" id="oauth-base_url-error">${error}</p>` : null}`;
}

function baseUrlInput(p: ConnectableProvider, prefix: string, state: FormState | undefined): SafeHtml | null {
  if (prefix === 'oauth' && p.manifest.oauth?.loginUrls?.length) return loginHostInput(p, state);
  // The sites the authorisation reaches are listed after it (Jira): nothing to type before.
  if (prefix === 'oauth' && p.manifest.oauth?.sites) return null;
  if (!p.needsBaseUrl && !state?.values.base_url) return null;
  const id = `${prefix}-base_url`;
  const error = state?.errors.base_url;
  return html`
<label for="${id}">Your ${p.manifest.displayName} address</label>
<p class="help" id="${id}-help">The address you open ${p.manifest.displayName} at, e.g. ${p.manifest.accountUrlExample ?? 'https://your-company.example.com'}</p>
<input id="${id}" name="base_url" type="url" inputmode="url" value="${state?.values.base_url ?? ''}" autocomplete="url" spellcheck="false" required aria-describedby="${id}-help${error ? html` ${id}-error` : null}"${error ? html` aria-invalid="true"` : null}>
${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : null}`;
}

export function providerPage(o: { nonce: string; linkToken: string; provider: ConnectableProvider; oauth?: FormState; form?: FormState }): SafeHtml {
  const p = o.provider;
  const name = p.manifest.displayName;
  const base = `/connect/${o.linkToken}/providers/${p.manifest.name}`;
  const message = o.oauth?.message ?? o.form?.message;
  const oauthBlock = p.oauth
    ? html`
<form method="post" action="${base}/oauth" data-busy="Opening ${name}…" novalidate>
  ${baseUrlInput(p, 'oauth', o.oauth)}
  <p class="help">You will sign in on ${name} and choose what to share. Omniport never sees your password.</p>
  <button type="submit">Continue with ${name}</button>
</form>`
    : null;
  const formBlock = p.form
    ? html`
<form method="post" action="${base}/credentials" data-busy="Checking…" novalidate${p.oauth ? html` class="or"` : null}>
  ${p.oauth ? html`<h2>Or use an API token</h2>` : null}
  ${baseUrlInput(p, 'form', o.form)}
  ${p.fields.map((f) => fieldInput(f, o.form))}
  ${p.manifest.sandbox ? html`<p class="help">A demo account with sample data, served by this Omniport: there is nothing to enter.</p>` : null}
  <button type="submit">Connect ${name}</button>
</form>`
    : null;
  const body = html`
<p><a class="secondary" href="/connect/${o.linkToken}">← All products</a></p>
<h1>${logo(name)} Connect ${name}</h1>
${message ? html`<div class="alert" role="alert" id="error-summary" tabindex="-1">${message}</div>` : null}
${oauthBlock}
${formBlock}`;
  return layout({ title: `Connect ${name}`, nonce: o.nonce, body });
}

/** The sites an authorisation reaches (Jira), to choose the one to connect; posted back with the flow's state. */
export function siteChoicePage(o: { nonce: string; choice: SiteChoice; action: string }): SafeHtml {
  const name = o.choice.manifest.displayName;
  const body = html`
<h1>${logo(name)} Choose your ${name} site</h1>
<p class="lead">Your account gave access to several ${name} sites. Choose the one to connect; you can connect another one later with your link.</p>
${o.choice.error ? html`<div class="alert" role="alert" id="error-summary" tabindex="-1">${o.choice.error}</div>` : null}
<form method="post" action="${o.action}" data-busy="Connecting…">
  <input type="hidden" name="state" value="${o.choice.state}">
  <fieldset class="sites">
    <legend class="visually-hidden">${name} sites</legend>
    ${o.choice.sites.map(
      (site, i) => html`<label class="site"><input type="radio" name="site" value="${site.id}" required${i === 0 ? html` autofocus` : null}> <span><span class="name">${site.name}</span><br><span class="meta">${site.url}</span></span></label>`,
    )}
  </fieldset>
  <button type="submit">Connect this site</button>
</form>`;
  return layout({ title: `Choose your ${name} site`, nonce: o.nonce, body });
}

export function successPage(o: { nonce: string; displayName: string; redirectUrl: string | null; reauthorized: boolean; linkToken: string }): SafeHtml {
  const returnLabel = o.redirectUrl ? new URL(o.redirectUrl).host : '';
  const body = html`
<p class="success" aria-hidden="true">✓</p>
<h1>${o.displayName} is ${o.reauthorized ? 'reconnected' : 'connected'}</h1>
<p class="lead">Your ${o.displayName} account is linked. Your data will start to appear shortly; there is nothing else to do.</p>
${o.redirectUrl ? html`<a class="button" href="${o.redirectUrl}" id="return">Return to ${returnLabel}</a><br>` : html`<p>You can close this window.</p>`}
<a class="secondary" href="/connect/${o.linkToken}">Connect another product</a>`;
  return layout({ title: `${o.displayName} connected`, nonce: o.nonce, body });
}

const linkProblems = {
  unknown: {
    title: 'This link is not valid',
    text: 'The address may be incomplete. Copy the whole link from the message you received, or ask the sender for a new one.',
  },
  expired: {
    title: 'This link has expired',
    text: 'Links to connect an account are valid for a limited time. Ask the sender for a new link.',
  },
  revoked: {
    title: 'This link is no longer active',
    text: 'The sender has withdrawn this link. Ask them for a new one if you still need to connect an account.',
  },
} as const;

export function linkProblemPage(o: { nonce: string; status: keyof typeof linkProblems }): SafeHtml {
  const problem = linkProblems[o.status];
  const body = html`<h1>${problem.title}</h1><p class="lead">${problem.text}</p>`;
  return layout({ title: problem.title, nonce: o.nonce, body });
}

const flowProblems: Record<FlowFailure, { title: string; text: string }> = {
  state_missing: { title: 'Nothing to finish here', text: 'This page is where a product sends you back after you sign in. Start again from your link.' },
  state_invalid: {
    title: 'We could not verify this sign-in',
    text: 'It was started in another browser, or the address was changed. For your security nothing was connected. Start again from your link, in this browser.',
  },
  state_expired: { title: 'This sign-in took too long', text: 'For your security, sign-ins must be finished within a few minutes. Nothing was connected; please try again.' },
  state_used: { title: 'This sign-in was already used', text: 'Each sign-in can be used once. If you just connected your account, there is nothing else to do.' },
  link_revoked: { title: 'This link is no longer active', text: 'The sender withdrew the link while you were signing in. Nothing was connected.' },
  access_denied: { title: 'Access was not granted', text: 'You chose not to allow access, so nothing was connected. You can try again whenever you like.' },
  provider_error: { title: 'The product reported a problem', text: 'Nothing was connected. Please try again in a moment.' },
  token_exchange_failed: { title: 'The product refused the sign-in', text: 'Nothing was connected. Please try again; if it keeps failing, tell the sender of your link.' },
};

export function flowProblemPage(o: { nonce: string; reason: FlowFailure; detail?: string; linkToken?: string }): SafeHtml {
  const problem = flowProblems[o.reason];
  const body = html`
<h1>${problem.title}</h1>
<p class="lead">${problem.text}</p>
${o.detail ? html`<p class="meta">Details: ${o.detail}</p>` : null}
${o.linkToken ? html`<a class="button" href="/connect/${o.linkToken}">Try again</a>` : null}`;
  return layout({ title: problem.title, nonce: o.nonce, body });
}

export function errorPage(o: { nonce: string; title: string; text: string; linkToken?: string }): SafeHtml {
  const body = html`<h1>${o.title}</h1><p class="lead">${o.text}</p>${o.linkToken ? html`<a class="secondary" href="/connect/${o.linkToken}">Back to your link</a>` : null}`;
  return layout({ title: o.title, nonce: o.nonce, body });
}

const capitalise = (s: string) => (s === 'crm' ? 'CRM' : s.charAt(0).toUpperCase() + s.slice(1));
