/**
 * Marks a simulator's answer to a request that none of its routes serves (a provider answers those like a
 * missing record, so the status alone cannot tell them apart): the declared-contract tests probe every
 * contract endpoint and fail on this header (test/contracts).
 */
import type { SimResponse } from './http-kit';

export const NO_ROUTE_HEADER = 'x-simulator-no-route';

export const noRoute = (res: SimResponse): SimResponse => ({ ...res, headers: { ...res.headers, [NO_ROUTE_HEADER]: '1' } });
