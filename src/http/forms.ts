import type { FastifyInstance } from 'fastify';
import formBody from '@fastify/formbody';

/** HTML pages post small forms; anything larger is refused before it is parsed. */
const FORM_LIMIT_BYTES = 64 * 1024;

/**
 * Plain HTML forms (application/x-www-form-urlencoded), accepted in the plugin that calls this only:
 * the API itself accepts JSON alone.
 */
export async function acceptForms(app: FastifyInstance): Promise<void> {
  await app.register(formBody, { bodyLimit: FORM_LIMIT_BYTES });
}

/** The string fields of a submitted form (repeated or non-string fields are ignored; a JSON body is read the same way). */
export function formOf(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    for (const [k, v] of Object.entries(body)) if (typeof v === 'string') out[k] = v;
  }
  return out;
}
