import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector } from 'undici';
import { AppError } from './errors';

/** Public unicast: not loopback, private, link-local, carrier-grade NAT, multicast, reserved … */
export const isPublicAddress = (address: string) => ipaddr.process(address).range() === 'unicast';

/**
 * The resolver behind every address check, at connection time and at dial time (the system's by default;
 * tests replace it to play a name that changes its answer between the check and the call).
 */
export const addressResolver: { lookup: typeof dnsLookup } = { lookup: dnsLookup };

const lookupAll = (host: string) =>
  new Promise<LookupAddress[]>((resolve, reject) =>
    addressResolver.lookup(host, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses as unknown as LookupAddress[]))),
  );

/** Whether a host name resolves to public addresses only. */
export async function hostReach(hostname: string): Promise<'public' | 'private' | 'unresolved'> {
  const host = hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string }[];
  try {
    addresses = net.isIP(host) ? [{ address: host }] : await lookupAll(host);
  } catch {
    return 'unresolved';
  }
  if (addresses.length === 0) return 'unresolved';
  return addresses.every((a) => isPublicAddress(a.address)) ? 'public' : 'private';
}

/**
 * Refuses a provider address that points into Omniport's own network (SSRF): a tenant must not make
 * Omniport call loopback or private services. Checked when a connection is made.
 */
export async function assertReachableFromInternet(url: string, field: string): Promise<void> {
  const reach = await hostReach(new URL(url).hostname);
  if (reach === 'unresolved') throw new AppError('validation_failed', `${field}: ${new URL(url).hostname} was not found`, { field });
  if (reach === 'private') {
    throw new AppError('validation_failed', `${field}: private and loopback addresses are refused; set OMNIPORT_ALLOW_PRIVATE_URLS=true to allow them (local receivers, on-premise products, simulators)`, { field });
  }
}

/** A connection refused because its address is not public; its message names no address and no port. */
export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKED';
  constructor() {
    super('the address is not public (private, loopback and link-local addresses are refused)');
    this.name = 'BlockedAddressError';
  }
}

/** Resolves like the system, and refuses the connection if any address of the name is not public. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  addressResolver.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 4);
    const list = addresses as LookupAddress[];
    if (list.length === 0 || list.some((a) => !isPublicAddress(a.address))) return callback(new BlockedAddressError(), '', 4);
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};

/**
 * Checks the address actually dialled, for every connection (so every redirect and retry too): IP literals
 * here, since Node never calls `lookup` for them, host names in the lookup above. Checking at dial time
 * closes the window where a name resolves to a public address when checked and a private one when used.
 */
function publicOnlyConnector(): buildConnector.connector {
  const connect = buildConnector({ lookup: publicOnlyLookup } as buildConnector.BuildOptions);
  return (options, callback) => {
    const host = options.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host) && !isPublicAddress(host)) return callback(new BlockedAddressError(), null);
    return connect(options, callback);
  };
}

const agents = new Map<boolean, Agent>();

/**
 * The dispatcher of every call Omniport makes on a tenant's behalf (providers, OAuth endpoints, attachment
 * downloads): with `allowPrivate` false, only public addresses can be dialled.
 */
export function outboundAgent(allowPrivate: boolean): Agent {
  let agent = agents.get(allowPrivate);
  if (!agent) {
    agent = new Agent({ keepAliveTimeout: 10_000, connections: 64, connect: allowPrivate ? undefined : publicOnlyConnector() });
    agents.set(allowPrivate, agent);
  }
  return agent;
}

/** Whether an error (or its cause) is a refused address. */
export function isBlockedAddress(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof BlockedAddressError || (e as { code?: unknown }).code === 'EBLOCKED') return true;
  }
  return false;
}
