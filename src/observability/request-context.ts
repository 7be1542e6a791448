import { AsyncLocalStorage } from 'node:async_hooks';

/** What follows a request into the work it starts (log lines, queued jobs). */
export interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const runWithRequestContext = <T>(ctx: RequestContext, fn: () => T): T => storage.run(ctx, fn);

/** The id of the request this code runs for, if any. */
export const currentRequestId = (): string | undefined => storage.getStore()?.requestId;
