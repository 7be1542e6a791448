import { describe, expect, it } from 'vitest';
import { hostMatches, urlAllowed } from '../../src/core/oauth-hosts';
import { defaultProviders } from '../../src/providers/registry';

describe('OAuth host rules', () => {
  it('matches a wildcard on names under the domain only, and exact hosts exactly', () => {
    expect(hostMatches('acme.zendesk.com', '*.zendesk.com')).toBe(true);
    expect(hostMatches('ACME.Zendesk.com', '*.zendesk.com')).toBe(true);
    expect(hostMatches('a--b.sandbox.my.salesforce.com', '*.my.salesforce.com')).toBe(true);
    for (const host of ['zendesk.com', 'evilzendesk.com', 'zendesk.com.attacker.example', 'acme.zendesk.co']) expect(hostMatches(host, '*.zendesk.com'), host).toBe(false);
    expect(hostMatches('login.salesforce.com', 'login.salesforce.com')).toBe(true);
    expect(hostMatches('xlogin.salesforce.com', 'login.salesforce.com')).toBe(false);
  });

  it('takes https on the default port only, and loopback only where allowed', () => {
    expect(urlAllowed(new URL('https://acme.zendesk.com/x'), ['*.zendesk.com'], false)).toBe(true);
    expect(urlAllowed(new URL('http://acme.zendesk.com'), ['*.zendesk.com'], false)).toBe(false);
    expect(urlAllowed(new URL('https://acme.zendesk.com:8443'), ['*.zendesk.com'], false)).toBe(false);
    expect(urlAllowed(new URL('https://u:p@acme.zendesk.com'), ['*.zendesk.com'], false)).toBe(false);
    expect(urlAllowed(new URL('http://127.0.0.1:9999'), ['*.zendesk.com'], false)).toBe(false);
    expect(urlAllowed(new URL('http://127.0.0.1:9999'), ['*.zendesk.com'], true)).toBe(true);
    expect(urlAllowed(new URL('http://[::1]:9999'), [], true)).toBe(true);
  });

  it('every OAuth provider declares hosts that its default address and login hosts satisfy', () => {
    const oauth = defaultProviders().map((a) => a.manifest).filter((m) => m.oauth);
    expect(oauth.length).toBeGreaterThanOrEqual(17);
    for (const m of oauth) {
      const hosts = m.oauth!.hosts;
      expect(hosts.length, m.name).toBeGreaterThan(0);
      for (const url of [m.defaultBaseUrl, ...(m.oauth!.loginUrls ?? []).map((l) => l.url), m.oauth!.sites?.apiBaseUrl.replace('{id}', 'x')]) {
        if (url) expect(urlAllowed(new URL(url), hosts, false), `${m.name} ${url}`).toBe(true);
      }
    }
  });
});
