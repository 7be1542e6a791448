import { AppError, unknownProvider } from './errors';
import type { AccessContext } from './access';
import type { ProviderRegistry } from '../providers/registry';
import type { ConnectRepo } from '../store/connect.repo';

/** A project's settings of the hosted connect page. */
export interface ConnectSettings {
  /** Providers the connect page offers; null: every provider that can be connected. */
  enabledProviders: string[] | null;
  /** Exact URLs, or prefixes ending in `/`, the connect page may send the user back to. */
  allowedRedirectUrls: string[];
}

export interface ConnectSettingsInput {
  enabled_providers?: string[] | null;
  allowed_redirect_urls?: string[];
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Parses a URL the user may be sent back to: absolute, https (http only on a loopback host, for local
 * development), no user name or password, no fragment. Returns its normalised form, or a reason.
 */
export function parseRedirectUrl(value: string): { url: URL } | { reason: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { reason: 'not an absolute URL' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) {
    return { reason: 'must be an https: URL (http: only for localhost)' };
  }
  if (url.username || url.password) return { reason: 'must not carry a user name or password' };
  if (url.hash) return { reason: 'must not carry a #fragment' };
  return { url };
}

/** `.` or `..` path segments (also percent-encoded) in the text of a URL, before its query. */
const DOT_SEGMENT = /[/\\](?:\.|%2e){1,2}(?:[/\\]|$)/i;

/**
 * The normalised form of `candidate` when it is one of the allowed URLs, or lies under an allowed prefix
 * (an entry ending in `/`); else null. Compared after URL normalisation: same origin, and a path that
 * starts with the prefix's path, so on a segment boundary (prefixes end in `/`). Refused outright,
 * whatever they normalise to: dot segments (`https://app.example.com/../..//evil.example.net` becomes
 * `https://app.example.com//evil.example.net`), empty path segments (`//evil.example.net` is another
 * host to any app that redirects to its own path), and encoded slashes, backslashes and dots after the
 * prefix (a server that decodes them first could still climb out).
 */
export function allowedRedirect(allowed: readonly string[], candidate: string): string | null {
  const parsed = parseRedirectUrl(candidate);
  if (!('url' in parsed)) return null;
  const url = parsed.url;
  const beforeQuery = candidate.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/\\?#]*/i, '').split(/[?#]/)[0]!;
  if (DOT_SEGMENT.test(beforeQuery) || url.pathname.includes('//')) return null;
  const ok = allowed.some((entry) => {
    const base = parseRedirectUrl(entry);
    if (!('url' in base)) return false;
    if (!entry.endsWith('/')) return base.url.href === url.href;
    if (base.url.origin !== url.origin || base.url.search || !url.pathname.startsWith(base.url.pathname)) return false;
    return !/%2f|%5c|%2e/i.test(url.pathname.slice(base.url.pathname.length));
  });
  return ok ? url.href : null;
}

/** True when `candidate` is allowed (see allowedRedirect). */
export function redirectAllowed(allowed: readonly string[], candidate: string): boolean {
  return allowedRedirect(allowed, candidate) !== null;
}

export class ConnectSettingsService {
  constructor(
    private readonly repo: ConnectRepo,
    private readonly providers: ProviderRegistry,
  ) {}

  async get(projectId: string): Promise<ConnectSettings> {
    const row = await this.repo.getSettings(projectId);
    return { enabledProviders: row?.enabledProviders ?? null, allowedRedirectUrls: row?.allowedRedirectUrls ?? [] };
  }

  async update(ctx: AccessContext, input: ConnectSettingsInput): Promise<ConnectSettings> {
    const values: { enabledProviders?: string[] | null; allowedRedirectUrls?: string[] } = {};
    if (input.enabled_providers !== undefined) {
      if (input.enabled_providers !== null) {
        const known = this.providers.names();
        const unknown = input.enabled_providers.filter((p) => !known.includes(p));
        if (unknown.length > 0) {
          throw unknownProvider(unknown[0]!, 'enabled_providers', known);
        }
      }
      values.enabledProviders = input.enabled_providers === null ? null : [...new Set(input.enabled_providers)];
    }
    if (input.allowed_redirect_urls !== undefined) {
      const normalised: string[] = [];
      for (const [i, entry] of input.allowed_redirect_urls.entries()) {
        const parsed = parseRedirectUrl(entry);
        if (!('url' in parsed)) {
          throw new AppError('validation_failed', `allowed_redirect_urls[${i}]: ${parsed.reason}`, { field: `allowed_redirect_urls.${i}` });
        }
        normalised.push(parsed.url.href);
      }
      values.allowedRedirectUrls = [...new Set(normalised)];
    }
    const row = await this.repo.upsertSettings(ctx.projectId, values);
    return { enabledProviders: row.enabledProviders ?? null, allowedRedirectUrls: row.allowedRedirectUrls };
  }
}
