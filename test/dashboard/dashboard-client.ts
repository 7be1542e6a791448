/** A minimal browser for the dashboard without a browser: a cookie jar, forms, the page's CSRF token. */
export interface DashboardResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The Set-Cookie headers of this response. */
  cookies: string[];
}

export class DashboardClient {
  readonly jar = new Map<string, string>();
  /** The CSRF token of the last page that carried one. */
  csrf: string | undefined;

  constructor(readonly baseUrl: string) {}

  private cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(method: string, path: string, o: { form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<DashboardResponse> {
    const headers: Record<string, string> = { ...o.headers };
    if (this.jar.size) headers.cookie = this.cookieHeader();
    let body: string | undefined;
    if (o.form) {
      body = new URLSearchParams(o.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const res = await fetch(this.baseUrl + path, { method, headers, body, redirect: 'manual' });
    const cookies = res.headers.getSetCookie();
    for (const c of cookies) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (/expires=Thu, 01 Jan 1970/i.test(c) || value === '') this.jar.delete(name);
      else this.jar.set(name, value);
    }
    const text = await res.text();
    const token = text.match(/name="_csrf" value="([^"]+)"/)?.[1];
    if (token) this.csrf = token;
    return { status: res.status, headers: res.headers, text, cookies };
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request('GET', path, { headers });
  }

  /** Posts a form with the current CSRF token (unless `_csrf` is given, or `csrf: false`). */
  post(path: string, form: Record<string, string> = {}, o: { csrf?: boolean; headers?: Record<string, string> } = {}) {
    const fields = o.csrf === false || '_csrf' in form ? form : { _csrf: this.csrf ?? '', ...form };
    return this.request('POST', path, { form: fields, headers: o.headers });
  }

  /** Opens the sign-in page and signs in with the key. */
  async signIn(apiKey: string): Promise<DashboardResponse> {
    await this.get('/dashboard/login');
    return this.post('/dashboard/login', { api_key: apiKey });
  }
}
