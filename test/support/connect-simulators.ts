/** Connections to the provider simulators through the API, as a developer makes them (POST /connections). */
import type { TestServer } from './harness';
import type { ZendeskSimulator } from '../simulators/zendesk';

/** Any provider: the body of POST /connections; returns the connection token. */
export async function connect(server: TestServer, body: Record<string, unknown>): Promise<string> {
  const res = await server.call('POST', '/connections', { body });
  if (res.status !== 201) throw new Error(`POST /connections answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.connection_token as string;
}

/** Connects a Zendesk simulator (or a proxy in front of it, `baseUrl`); returns the connection token. */
export function connectZendesk(server: TestServer, sim: ZendeskSimulator, o: { origin?: string; baseUrl?: string } = {}): Promise<string> {
  const cred = sim.credentials[0]!;
  return connect(server, {
    provider: 'zendesk',
    linked_user_origin_id: o.origin ?? 'customer',
    credentials: { email: cred.email, api_token: cred.apiToken },
    base_url: o.baseUrl ?? sim.url,
  });
}

/** Connects a HubSpot simulator with one of its access tokens; returns the connection token. */
export function connectHubSpot(server: TestServer, sim: { url: string }, accessToken: string, o: { origin?: string; baseUrl?: string } = {}): Promise<string> {
  return connect(server, {
    provider: 'hubspot',
    linked_user_origin_id: o.origin ?? 'customer',
    credentials: { access_token: accessToken },
    base_url: o.baseUrl ?? sim.url,
  });
}
