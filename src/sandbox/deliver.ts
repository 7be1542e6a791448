/**
 * The one way anything leaves the sandbox's simulators: their webhooks, delivered to this Omniport's own
 * provider-webhook receiver (`/webhooks/providers/sandbox_<product>/<route key>` at an address of this process)
 * and to nothing else. A tenant can register any endpoint in a simulated account (passthrough
 * `POST /api/v2/webhooks`); a loopback, private or public host, another path, a query or credentials in the URL
 * are all refused, and nothing is sent (issue 40).
 *
 * Why this is not the guarded outbound agent (src/core/network.ts): its only target is Omniport itself. The
 * request never reaches the network: it is served in this process by the HTTP server's `inject` (no socket, no
 * DNS, no redirect to follow), through the same routes, hooks and signature checks as a provider's request.
 */
import type { WebhookDelivery } from './simulators/shared/webhook-sender';

/** This process's HTTP server, as the sandbox reaches it. */
export interface OmniportReceiver {
  /** The origins this process answers at: its listening address, and OMNIPORT_PUBLIC_URL when set. */
  origins(): string[];
  /** Serves one request in this process (Fastify's `inject`). */
  inject(request: { method: 'POST'; url: string; headers: Record<string, string>; payload: string }): Promise<{ statusCode: number }>;
}

const ROUTE_KEY = /^[A-Za-z0-9]{16,64}$/;

/** The receiver path an endpoint names, when it is one of `provider`'s receiving addresses of this process. */
export function ownReceiverPath(endpoint: string, provider: string, origins: readonly string[]): string | undefined {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return undefined;
  }
  if (url.username || url.password || url.search || url.hash || !origins.includes(url.origin)) return undefined;
  const [empty, webhooks, providers, name, key, ...rest] = url.pathname.split('/');
  if (empty !== '' || webhooks !== 'webhooks' || providers !== 'providers' || name !== provider || !key || !ROUTE_KEY.test(key) || rest.length) return undefined;
  return url.pathname;
}

/**
 * The webhook delivery of `provider`'s simulator: a signed POST to Omniport's receiver for that provider, or
 * nothing (status 0) for any other endpoint, or while the server is not wired yet.
 */
export function deliverToOmniport(provider: string, receiver: () => OmniportReceiver | undefined): WebhookDelivery {
  return async (endpoint, { headers, body }) => {
    const server = receiver();
    const path = server ? ownReceiverPath(endpoint, provider, server.origins()) : undefined;
    if (!server || !path) return 0;
    const answer = await server.inject({ method: 'POST', url: path, headers, payload: body });
    return answer.statusCode;
  };
}

/** The origins of a listening Node server (IPv6 in brackets), for `OmniportReceiver.origins`. */
export function listeningOrigins(address: string | { address: string; port: number } | null, publicUrl: string | undefined): string[] {
  const origins: string[] = [];
  if (address && typeof address === 'object') {
    const host = address.address.includes(':') ? `[${address.address}]` : address.address;
    origins.push(new URL(`http://${host}:${address.port}`).origin);
  }
  if (publicUrl) origins.push(new URL(publicUrl).origin);
  return origins;
}
