/**
 * Omniport's TypeScript client: openapi-fetch typed by the OpenAPI document (./openapi.d.ts, generated).
 * Plain JavaScript beside its types (./index.d.ts), so the package works as it is in the repository —
 * `npm install <path to>/sdk` needs no build step and downloads nothing but openapi-fetch.
 */
import createClient from 'openapi-fetch';

/** @type {import('./index.d.ts').createOmniportClient} */
export function createOmniportClient({ baseUrl, apiKey, connectionToken, headers, ...rest }) {
  return createClient({
    ...rest,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...headers, 'x-api-key': apiKey, ...(connectionToken ? { 'x-connection-token': connectionToken } : {}) },
  });
}

/** @type {import('./index.d.ts').paginate} */
export async function* paginate(page) {
  let cursor;
  do {
    const { data, error } = await page(cursor);
    if (!data) throw Object.assign(new Error('Omniport list call failed'), { body: error });
    yield* data.data;
    cursor = data.next_cursor ?? undefined;
  } while (cursor);
}
