import { randomBytes } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import { acceptForms, formOf } from '../http/forms';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../core/errors';
import { isMagicLinkToken, type ActiveLink, type ConnectableProvider } from '../core/connect';
import { flowCookieName, parseState, readFlowCookie, type CompletedFlow, type FlowFailure, type SiteChoice } from '../core/oauth';
import type { Services } from '../services';
import type { ConnectionView } from '../core/connections';
import type { SafeHtml } from './html';
import { errorPage, flowProblemPage, linkProblemPage, providerListPage, providerPage, siteChoicePage, successPage, type FormState } from './pages';

export interface ConnectPageOptions {
  services: Services;
  /** OMNIPORT_PUBLIC_URL; otherwise the address the browser used. */
  publicUrl?: string;
}

/** The address browsers reach Omniport at: OMNIPORT_PUBLIC_URL, else the request's own origin. */
export function publicBase(request: FastifyRequest, publicUrl: string | undefined): string {
  return (publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
}

export const callbackPath = '/connect/oauth/callback';


/**
 * The headers of every server-rendered page (connect page, dashboard): styles and scripts only with the
 * response's nonce, no framing, no Referer. `fetchSelf` lets the page's scripts call back its own origin.
 */
export function htmlPageHeaders(nonce: string, o: { fetchSelf?: boolean } = {}): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    // The URL holds the link's secret: it must not leak to the provider (or anywhere) as a Referer.
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'content-security-policy': `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; img-src 'self' data:;${o.fetchSelf ? " connect-src 'self';" : ''} base-uri 'none'; frame-ancestors 'none'`,
  };
}

/** Sends a page with a fresh CSP nonce and the headers every connect page carries. */
function sendPage(reply: FastifyReply, status: number, render: (nonce: string) => SafeHtml) {
  const nonce = randomBytes(16).toString('base64');
  return reply.status(status).headers(htmlPageHeaders(nonce)).send(render(nonce).value);
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);


/** Form fields to show again after an error: never the secret ones. */
function keptValues(provider: ConnectableProvider, form: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  if (form.base_url) out.base_url = form.base_url;
  if (form.login_host) out.login_host = form.login_host;
  for (const f of provider.fields) if (f.type !== 'password' && form[f.name]) out[f.name] = form[f.name]!;
  return out;
}

/** Field errors and a summary from an AppError of a form submission. */
function formErrors(err: AppError, provider: ConnectableProvider): Pick<FormState, 'errors' | 'message'> {
  const errors: Record<string, string> = {};
  const details = err.details as { field?: string; issues?: { path: string; message: string }[]; provider_message?: string; provider_status?: number };
  for (const issue of details.issues ?? []) {
    const name = issue.path.replace(/^credentials\./, '');
    const field = provider.fields.find((f) => f.name === name);
    if (!field) continue;
    const label = /^[A-Z]{2}/.test(field.label) ? field.label : field.label.charAt(0).toLowerCase() + field.label.slice(1);
    if (/received undefined|required/i.test(issue.message)) errors[name] = `Enter your ${label}`;
    else if (field.type === 'email') errors[name] = 'Enter a valid email address';
    else errors[name] = issue.message;
  }
  if (details.field === 'base_url') errors.base_url = err.message.charAt(0).toUpperCase() + err.message.slice(1);
  const name = provider.manifest.displayName;
  let message: string;
  if (err.code === 'unprocessable' && details.field === 'credentials') {
    message = `${name} did not accept these credentials${details.provider_message ? `: ${details.provider_message}` : ''}. Check them and try again.`;
  } else if (err.status >= 500) {
    message = `${name} could not be reached to check the credentials. Please try again in a moment.`;
  } else if (Object.keys(errors).length > 0) {
    message = 'Please correct the fields marked below.';
  } else {
    message = err.message.charAt(0).toUpperCase() + err.message.slice(1);
  }
  return { errors, message };
}

/**
 * The hosted connect page (public: the magic link's secret is the credential). Registered under /connect.
 * Forms post application/x-www-form-urlencoded, so the page needs no JavaScript.
 */
export const connectPageRoutes: FastifyPluginAsync<ConnectPageOptions> = async (app, { services, publicUrl }) => {
  // The OAuth flow's cookie (the browser that started a flow is the one that may finish it).
  await app.register(fastifyCookie);
  await acceptForms(app);

  // Any failure renders a page, never a JSON error or a stack trace.
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      const text = err.code === 'not_found' ? 'This page does not exist. Go back to your link and choose a product from the list.' : err.message;
      return sendPage(reply, err.status, (nonce) => errorPage({ nonce, title: err.code === 'not_found' ? 'Page not found' : 'Something went wrong', text }));
    }
    if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      return sendPage(reply, err.statusCode, (nonce) => errorPage({ nonce, title: 'This request could not be handled', text: 'Go back and try again.' }));
    }
    request.log.error({ err }, 'connect page failed');
    return sendPage(reply, 500, (nonce) => errorPage({ nonce, title: 'Something went wrong', text: 'Please try again in a moment.' }));
  });
  app.setNotFoundHandler((_request, reply) =>
    sendPage(reply, 404, (nonce) => errorPage({ nonce, title: 'Page not found', text: 'Open the whole link you received to connect your account.' })),
  );

  // A token outside the magic-link alphabet is no link: answered before it can reach a query or a
  // Location header (CR/LF, NUL or emoji there would break the response).
  app.addHook('onRequest', async (request, reply) => {
    const token = (request.params as { token?: unknown }).token;
    if (typeof token === 'string' && !isMagicLinkToken(token)) {
      return sendPage(reply, 404, (nonce) => linkProblemPage({ nonce, status: 'unknown' }));
    }
  });

  const config = { public: true };
  const schema = { hide: true };

  /** The audit entry of a connection made (or authorised again) by an end customer on a magic link's page. */
  async function recordConnection(request: FastifyRequest, view: ConnectionView & { reauthorized: boolean }, linkId: string | null | undefined, via: string) {
    await services.audit
      .record({
        projectId: view.row.projectId,
        actor: { type: 'magic_link', id: linkId ?? 'unknown' },
        action: view.reauthorized ? 'connection.reauthorized' : 'connection.created',
        target: { type: 'connection', id: view.row.id },
        requestId: request.id,
        sourceAddress: request.ip,
        details: { provider: view.row.provider, id_linked_user: view.row.linkedUserId, via },
      })
      .catch((err: Error) => request.log.error({ err: { message: err.message } }, 'an audit entry could not be written'));
  }

  /** The active link of the request, or the page that explains why it cannot be used. */
  async function activeLink(request: FastifyRequest, reply: FastifyReply): Promise<ActiveLink | undefined> {
    const token = (request.params as { token: string }).token;
    const opened = await services.connect.open(token);
    if (opened.status === 'active') return opened;
    await sendPage(reply, opened.status === 'unknown' ? 404 : 410, (nonce) => linkProblemPage({ nonce, status: opened.status }));
    return undefined;
  }

  /**
   * The end of an OAuth flow: the success page once connected, the site choice when the tokens reach
   * several sites (422 with its reason when a choice was refused), or the page that explains a failure.
   */
  async function finishFlow(request: FastifyRequest, reply: FastifyReply, state: string | undefined, run: (cookies: Record<string, string>) => Promise<CompletedFlow | SiteChoice>) {
    const cookies = request.cookies as Record<string, string>;
    const cookie = readFlowCookie(state, cookies);
    try {
      const done = await run(cookies);
      if (!('view' in done)) return sendPage(reply, done.error ? 422 : 200, (nonce) => siteChoicePage({ nonce, choice: done, action: callbackPath }));
      await recordConnection(request, done.view, done.inviteLinkId, 'oauth');
      const r = services.connect.signOutcome({ provider: done.manifest.name, redirectUrl: done.redirectUrl, reauthorized: done.view.reauthorized });
      const flowId = parseState(state!)!.flowId;
      reply.clearCookie(flowCookieName(flowId), { path: callbackPath, httpOnly: true, sameSite: 'lax' });
      return reply.redirect(`/connect/${cookie!.linkToken}/done?r=${encodeURIComponent(r)}`, 303);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // A failure after the code exchange (e.g. the provider refused the new token) is the provider's too.
      const reason = typeof err.details.reason === 'string' ? (err.details.reason as FlowFailure) : 'provider_error';
      const detail =
        typeof err.details.reason !== 'string'
          ? err.message
          : reason === 'token_exchange_failed' || reason === 'provider_error'
            ? [err.details.provider_error, err.details.provider_message].filter((v) => typeof v === 'string').join(': ') || undefined
            : undefined;
      // A flow this browser started (its cookie is there) can be tried again from its link.
      const linkToken = reason === 'state_missing' ? undefined : cookie?.linkToken;
      return sendPage(reply, err.status, (nonce) => flowProblemPage({ nonce, reason, detail, linkToken }));
    }
  }

  app.get('/oauth/callback', { config, schema }, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const state = str(query.state);
    return finishFlow(request, reply, state, (cookies) =>
      services.oauth.complete(
        { state, code: str(query.code), error: str(query.error), error_description: str(query.error_description) },
        cookies,
        publicBase(request, publicUrl) + callbackPath,
      ),
    );
  });

  // The site chosen on the page above: posted to the callback's path, where the flow's cookie is sent.
  app.post('/oauth/callback', { config, schema }, async (request, reply) => {
    const form = formOf(request.body);
    return finishFlow(request, reply, form.state, (cookies) => services.oauth.chooseSite(form.state, form.site, cookies));
  });

  app.get('/:token', { config, schema }, async (request, reply) => {
    const opened = await activeLink(request, reply);
    if (!opened) return reply;
    const [providers, connections] = await Promise.all([services.connect.linkCatalog(opened.link), services.connect.connectionsOf(opened.link)]);
    const linkToken = (request.params as { token: string }).token;
    return sendPage(reply, 200, (nonce) =>
      providerListPage({ nonce, linkToken, linkedUser: opened.linkedUser, providers, connections, expiresAt: opened.link.expiresAt }),
    );
  });

  app.get('/:token/providers/:provider', { config, schema }, async (request, reply) => {
    const opened = await activeLink(request, reply);
    if (!opened) return reply;
    const { token, provider } = request.params as { token: string; provider: string };
    const offered = await services.connect.linkProvider(opened.link, provider);
    return sendPage(reply, 200, (nonce) => providerPage({ nonce, linkToken: token, provider: offered }));
  });

  app.post('/:token/providers/:provider/oauth', { config, schema }, async (request, reply) => {
    const opened = await activeLink(request, reply);
    if (!opened) return reply;
    const { token, provider } = request.params as { token: string; provider: string };
    const form = formOf(request.body);
    const callbackUrl = publicBase(request, publicUrl) + callbackPath;
    try {
      // A typed login address (Salesforce My Domain) takes the place of the chosen one.
      const started = await services.oauth.start(opened, token, provider, form.login_host?.trim() || form.base_url, callbackUrl);
      const c = started.cookie;
      reply.setCookie(c.name, c.value, { maxAge: c.maxAgeSeconds, path: callbackPath, httpOnly: true, sameSite: 'lax', secure: c.secure });
      return reply.redirect(started.authorizeUrl, 303);
    } catch (err) {
      if (!(err instanceof AppError) || err.code === 'not_found') throw err;
      const offered = await services.connect.linkProvider(opened.link, provider);
      const state = { values: keptValues(offered, form), ...formErrors(err, offered) };
      return sendPage(reply, err.status, (nonce) => providerPage({ nonce, linkToken: token, provider: offered, oauth: state }));
    }
  });

  app.post('/:token/providers/:provider/credentials', { config, schema }, async (request, reply) => {
    const opened = await activeLink(request, reply);
    if (!opened) return reply;
    const { token, provider } = request.params as { token: string; provider: string };
    const form = formOf(request.body);
    try {
      const view = await services.connect.submitCredentials(opened, provider, form);
      await recordConnection(request, view, opened.link.id, 'connect_form');
      const redirectUrl = await services.connect.returnUrl(opened.link);
      const r = services.connect.signOutcome({ provider, redirectUrl, reauthorized: view.reauthorized });
      return reply.redirect(`/connect/${token}/done?r=${encodeURIComponent(r)}`, 303);
    } catch (err) {
      if (!(err instanceof AppError) || err.code === 'not_found') throw err;
      const offered = await services.connect.linkProvider(opened.link, provider);
      const state = { values: keptValues(offered, form), ...formErrors(err, offered) };
      return sendPage(reply, err.status, (nonce) => providerPage({ nonce, linkToken: token, provider: offered, form: state }));
    }
  });

  app.get('/:token/done', { config, schema }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const outcome = services.connect.readOutcome(str((request.query as Record<string, unknown>).r));
    const manifest = outcome ? services.providers.get(outcome.provider) : undefined;
    if (!outcome || !manifest) return reply.redirect(`/connect/${token}`, 303);
    return sendPage(reply, 200, (nonce) =>
      successPage({ nonce, displayName: manifest.displayName, redirectUrl: outcome.redirectUrl, reauthorized: outcome.reauthorized, linkToken: token }),
    );
  });
};
