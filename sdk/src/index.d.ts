/**
 * Omniport's TypeScript client: openapi-fetch typed by the OpenAPI document (./openapi.d.ts, generated).
 * Every call is `client.<METHOD>(path, { params, body })` and resolves to `{ data, error, response }`:
 * `data` typed by the operation's success answer, `error` by its error answer (status, code, message).
 */
import type { Client, ClientOptions } from 'openapi-fetch';
import type { components, paths } from './openapi.js';

export type { components, operations, paths } from './openapi.js';

/** The error body of every endpoint: `{statusCode, error, message, details: {code, request_id, …}}`. */
export type OmniportError = components['schemas']['Error'];
/** The stable, machine-readable error codes (`details.code`). */
export type OmniportErrorCode = OmniportError extends { details?: { code: infer C } } ? C : never;

export interface OmniportClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where Omniport listens, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** An API key of your project (`sk_live_…`). */
  apiKey: string;
  /** The connection token of one linked user's connection, for the ticketing and CRM calls that need it. */
  connectionToken?: string;
}

export type OmniportClient = Client<paths>;

export declare function createOmniportClient(options: OmniportClientOptions): OmniportClient;

/** A list call's page: the envelope with its cursors. */
interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/**
 * Every item of a list, page after page, following `next_cursor` to the end:
 * `for await (const t of paginate((cursor) => client.GET('/ticketing/tickets', { params: { query: { cursor } } }))) …`.
 * A failed page throws its error body.
 */
export declare function paginate<T>(page: (cursor: string | undefined) => Promise<{ data?: Page<T>; error?: unknown }>): AsyncGenerator<T>;
