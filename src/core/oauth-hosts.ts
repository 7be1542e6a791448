import net from 'node:net';
import { AppError } from './errors';
import type { ProviderManifest } from '../providers/manifest';

/**
 * Where the project's OAuth app may be used: the host rules of a provider (its manifest's `oauth.hosts`).
 *
 * A request carrying the project's client secret must never go to a host that a linked user typed, unless that
 * host is the provider's own: for providers whose token endpoint is relative to the account's address (Zendesk,
 * Salesforce, GitLab, Zoho, ServiceNow), anyone holding a magic link could otherwise type their own host and
 * receive the secret in the token request.
 */

/** `*.zendesk.com` matches any name under zendesk.com (one label or more), `login.salesforce.com` only itself. */
export function hostMatches(hostname: string, pattern: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  const rule = pattern.toLowerCase();
  if (rule.startsWith('*.')) {
    const suffix = rule.slice(1);
    return host.length > suffix.length && host.endsWith(suffix) && !host.slice(0, -suffix.length).endsWith('.');
  }
  return host === rule;
}

/** A loopback host (local simulators), accepted only where OMNIPORT_ALLOW_PRIVATE_URLS is set. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (net.isIPv4(host)) return host.startsWith('127.');
  return host === '::1';
}

/**
 * Whether `url` may be used with the project's OAuth app: https on the default port and a host matching one of
 * `patterns`, or (with `allowLoopback`, for local tests) any loopback address.
 */
export function urlAllowed(url: URL, patterns: readonly string[], allowLoopback: boolean): boolean {
  if (allowLoopback && isLoopbackHost(url.hostname)) return true;
  if (url.protocol !== 'https:' || url.port !== '' || url.username || url.password) return false;
  return patterns.some((p) => hostMatches(url.hostname, p));
}

/** The endpoints of the manifest are relative to the account's address (the secret's host depends on it). */
export const accountRelative = (manifest: ProviderManifest) => Boolean(manifest.oauth && !/^https?:\/\//.test(manifest.oauth.tokenUrl));

/**
 * The hosts an account reached through this OAuth app may live on: the manifest's rules, except for an
 * account-relative provider whose app names its own endpoints (a GitLab self-managed instance, one ServiceNow
 * instance): that app was registered on that host, and is used for it only.
 */
export function accountHosts(manifest: ProviderManifest, app: { tokenUrl: string | null; authorizeUrl: string | null }): string[] {
  const own = [app.tokenUrl, app.authorizeUrl].filter((u): u is string => Boolean(u)).map((u) => new URL(u).hostname.toLowerCase());
  // Where the account's address comes from the token answer (Salesforce, Zoho), the typed one is only a login host.
  if (own.length > 0 && accountRelative(manifest) && !manifest.oauth?.accountUrlFromToken) return [...new Set(own)];
  return [...(manifest.oauth?.hosts ?? [])];
}

/**
 * Refuses an account or login address outside the hosts the project's OAuth app may be used for, with an error
 * that says which hosts are and what to do instead.
 */
export function assertOAuthHost(manifest: ProviderManifest, url: string, patterns: readonly string[], allowLoopback: boolean, field = 'base_url'): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed && urlAllowed(parsed, patterns, allowLoopback)) return;
  const shown = parsed ? parsed.host : 'this address';
  const listed = patterns.length > 6 ? `${patterns.slice(0, 6).join(', ')} …` : patterns.join(', ') || 'none';
  throw new AppError(
    'validation_failed',
    `${shown} is not a ${manifest.displayName} address this project's OAuth app can be used with (allowed: ${listed}); ` +
      `connect it with an API token, or register an OAuth app for that host and set its authorize_url and token_url`,
    { field, allowed_hosts: patterns },
  );
}
