import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseRedirectUrl, redirectAllowed } from '../../src/core/connect-settings';
import { credentialFields } from '../../src/core/connect';
import { STATE_KEY_PURPOSE, parseState, readFlowCookie, signState, flowCookieName } from '../../src/core/oauth';
import { SecretBox, newMagicLinkToken } from '../../src/core/secrets';
import { html } from '../../src/connect/html';
import { maskUrl } from '../../src/http/server';
import { acmeTokenProvider } from '../support/connect-providers';

describe('redirect URLs', () => {
  const allowed = ['https://app.example.com/integrations/', 'https://app.example.com/exact?x=1', 'http://localhost:3000/'];

  it('allows exact URLs and paths under a prefix', () => {
    expect(redirectAllowed(allowed, 'https://app.example.com/integrations/')).toBe(true);
    expect(redirectAllowed(allowed, 'https://app.example.com/integrations/done?ok=1')).toBe(true);
    expect(redirectAllowed(allowed, 'https://APP.example.com:443/integrations/a/b')).toBe(true);
    expect(redirectAllowed(allowed, 'https://app.example.com/exact?x=1')).toBe(true);
    expect(redirectAllowed(allowed, 'http://localhost:3000/cb')).toBe(true);
  });

  it('refuses everything else, however it is disguised', () => {
    for (const url of [
      'https://app.example.com/exact?x=2',
      'https://app.example.com/exact',
      'https://app.example.com/integrations',
      'https://app.example.com/integrationsX/',
      'https://app.example.com/integrations/../admin',
      'https://app.example.com/integrations/%2e%2e/admin',
      'https://app.example.com/integrations/..%2fadmin',
      'https://app.example.com/integrations/%2E%2E%5cadmin',
      'https://app.example.com\\@evil.net/integrations/',
      'https://app.example.com@evil.net/integrations/',
      'https://user:pw@app.example.com/integrations/',
      'https://app.example.com.evil.net/integrations/',
      'https://app.example.com:8443/integrations/',
      'http://app.example.com/integrations/',
      'https://app.example.com/integrations/#frag',
      '//evil.net/integrations/',
      '/integrations/',
      'javascript:alert(1)',
      'data:text/html,hi',
      'http://localhost:3001/',
    ]) {
      expect(redirectAllowed(allowed, url), url).toBe(false);
    }
    expect(redirectAllowed([], 'https://app.example.com/')).toBe(false);
  });

  it('accepts https, and http only on loopback hosts, for the allowed list', () => {
    expect(parseRedirectUrl('https://a.example.com/x')).toHaveProperty('url');
    expect(parseRedirectUrl('http://127.0.0.1:8080/')).toHaveProperty('url');
    expect(parseRedirectUrl('http://a.example.com/')).toHaveProperty('reason');
    expect(parseRedirectUrl('ftp://a.example.com/')).toHaveProperty('reason');
  });
});

describe('html', () => {
  it('escapes every interpolated value, keeps its own fragments, and renders lists', () => {
    const name = `"><img src=x onerror=alert(1)>'&`;
    const out = html`<p title="${name}">${name}</p>${[html`<b>${'<i>'}</b>`, 'x<y']}${null}${false}${undefined}${0}`.value;
    expect(out).toBe(
      '<p title="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&#39;&amp;">&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&#39;&amp;</p><b>&lt;i&gt;</b>x&lt;y0',
    );
  });
});

describe('credential fields', () => {
  it('come from the provider’s credentials schema, secrets as password inputs', () => {
    expect(credentialFields(acmeTokenProvider.manifest)).toEqual([
      { name: 'email', label: 'Email', description: 'The email address you sign in to Acme CRM with.', type: 'email', required: true },
      { name: 'api_token', label: 'API token', description: 'Settings → API → Generate token.', type: 'password', required: true },
    ]);
  });
});

describe('OAuth state', () => {
  const box = new SecretBox(randomBytes(32));
  const signer = box.signer(STATE_KEY_PURPOSE);
  const flowId = '0b5e7c1e-8d1f-4c55-9f0a-2a1d3c4b5e6f';

  it('is signed with a key derived from the encryption key, one per purpose', () => {
    const state = signState(signer, flowId, 1_900_000_000, 'nonce1');
    expect(parseState(state)).toMatchObject({ flowId, exp: 1_900_000_000 });
    const { signature } = parseState(state)!;
    expect(signer.verify(`state.v1|${flowId}|1900000000|nonce1`, signature)).toBe(true);
    expect(signer.verify(`state.v1|${flowId}|1900000000|nonce2`, signature)).toBe(false); // another browser's nonce
    expect(box.signer('other-purpose').verify(`state.v1|${flowId}|1900000000|nonce1`, signature)).toBe(false);
    expect(new SecretBox(randomBytes(32)).signer(STATE_KEY_PURPOSE).verify(`state.v1|${flowId}|1900000000|nonce1`, signature)).toBe(false);
    expect(box.deriveKey(STATE_KEY_PURPOSE).equals(box.deriveKey(STATE_KEY_PURPOSE))).toBe(true);
    expect(box.deriveKey('a').equals(box.deriveKey('b'))).toBe(false);
  });

  it('parses strictly, and reads the flow cookie of its flow only', () => {
    for (const bad of ['', 'x.y.z', `${flowId}.12.short`, `${flowId.toUpperCase()}.12.${'a'.repeat(43)}`, `${flowId}.12.${'a'.repeat(43)}.extra`]) {
      expect(parseState(bad), bad).toBeUndefined();
    }
    const state = signState(signer, flowId, 12, 'n');
    const link = newMagicLinkToken();
    expect(readFlowCookie(state, { [flowCookieName(flowId)]: `abc123.${link}` })).toEqual({ nonce: 'abc123', linkToken: link });
    expect(readFlowCookie(state, { [flowCookieName('1' + flowId.slice(1))]: `abc123.${link}` })).toBeUndefined();
    expect(readFlowCookie(state, { [flowCookieName(flowId)]: 'abc123.javascript:alert(1)' })).toBeUndefined();
  });
});

describe('log lines', () => {
  it('never carry the magic link’s secret, OAuth codes or states', () => {
    const link = newMagicLinkToken();
    expect(maskUrl(`/connect/${link}/providers/zendesk`)).toBe('/connect/ml_[redacted]/providers/zendesk');
    expect(maskUrl('/connect/oauth/callback?code=abc&state=def&x=1')).toBe('/connect/oauth/callback?code=[redacted]&state=[redacted]&x=1');
    expect(maskUrl(`/connect/${link}/done?r=signed.payload`)).toBe('/connect/ml_[redacted]/done?r=[redacted]');
  });
});
