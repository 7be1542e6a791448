import dns from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { AppError } from './errors';

/** Public unicast: not loopback, private, link-local, carrier-grade NAT, multicast, reserved … */
export const isPublicAddress = (address: string) => ipaddr.process(address).range() === 'unicast';

/** Whether a host name resolves to public addresses only. */
export async function hostReach(hostname: string): Promise<'public' | 'private' | 'unresolved'> {
  const host = hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string }[];
  try {
    addresses = ipaddr.isValid(host) ? [{ address: host }] : await dns.lookup(host, { all: true });
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
    throw new AppError('validation_failed', `${field}: private and loopback addresses are refused (OMNIPORT_ALLOW_PRIVATE_URLS)`, { field });
  }
}
