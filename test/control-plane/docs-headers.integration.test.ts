/** The API reference pages (/docs, Swagger UI) carry a content security policy and refuse framing (issue 40 row 6). */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ work: false });
});
afterAll(() => server.close());

it('serves every /docs page with a CSP, no framing and no sniffing', async () => {
  for (const path of ['/docs', '/docs/static/index.html', '/docs/static/swagger-initializer.js', '/docs/json']) {
    const res = await fetch(server.url + path, { redirect: 'manual' });
    expect(res.status, path).toBeLessThan(400);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp, path).toContain("default-src 'self'");
    expect(csp, path).toContain("frame-ancestors 'none'");
    expect(csp, path).toContain("object-src 'none'");
    expect(csp, path).not.toContain('upgrade-insecure-requests');
    expect(res.headers.get('x-frame-options'), path).toBe('DENY');
    expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    await res.arrayBuffer();
  }
});
