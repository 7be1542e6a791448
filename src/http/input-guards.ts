import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../core/errors';
import { sendError } from './errors';

/**
 * Text PostgreSQL cannot store (U+0000 in text and jsonb) or that is not Unicode at all (a lone UTF-16
 * surrogate). Refused in client input, where the client can fix it; provider data is cleaned at the
 * store boundary instead.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const unstorable = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text);

/** The path (`body.items.0.name`) of the first unstorable string or key in a parsed value, if any. */
export function findUnstorableText(value: unknown, root: string): string | undefined {
  // Iterative: a body nested thousands of levels deep must not overflow the stack.
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      if (unstorable(current)) return path;
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], `${path}.${i}`]);
    } else if (current !== null && typeof current === 'object') {
      for (const [key, inner] of Object.entries(current)) {
        if (unstorable(key)) return path;
        stack.push([inner, `${path}.${key}`]);
      }
    }
  }
  return undefined;
}

/**
 * Refuses NUL and lone surrogates in path parameters, query and body of every route before its schema
 * runs: one 400 naming the field, instead of a database error on whichever query meets them first.
 */
export function registerTextGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    const parts: [string, unknown][] = [
      ['params', request.params],
      ['querystring', request.query],
      ['body', request.body],
    ];
    for (const [part, value] of parts) {
      const path = findUnstorableText(value, part);
      if (path === undefined) continue;
      const message = 'must not contain U+0000 (NUL) or a lone UTF-16 surrogate';
      throw new AppError('validation_failed', `${path}: ${message}`, { field: path, issues: [{ path, message }] });
    }
  });
}

/**
 * Fastify's router answers URLs it cannot decode (a percent-encoded lone surrogate) and over-long path
 * parameters itself; this handler gives them our error body and request id.
 */
export function frameworkErrorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const message = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'a path parameter is too long' : 'the URL path is not valid percent-encoded UTF-8';
  reply.header('x-request-id', request.id);
  return sendError(request, reply, new AppError('validation_failed', message, { field: 'params' }));
}
