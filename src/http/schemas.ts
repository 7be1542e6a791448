import { z } from 'zod';
import { isUuid } from '../core/access';
import { errorCodes, type ErrorCode } from '../core/errors';

/** The error body of every endpoint (DESIGN.md §2). */
export const errorSchema = z
  .object({
    statusCode: z.number().int(),
    error: z.string(),
    message: z.string(),
    details: z
      .object({
        code: z.enum(Object.keys(errorCodes) as [ErrorCode, ...ErrorCode[]]).describe('Stable, machine-readable: the closed set of codes.'),
        request_id: z.string().optional().describe('Also in the x-request-id header.'),
      })
      .catchall(z.unknown())
      .optional(),
  })
  .meta({ id: 'Error' });

/** Error responses every route may answer; declared so they appear in the OpenAPI document. */
export const errorResponses = {
  '4xx': errorSchema,
  '5xx': errorSchema,
} as const;

/** `{message, statusCode, data}` — the envelope of create and read calls. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ message: z.string(), statusCode: z.number().int(), data });
}

/** The envelope of list calls, with keyset cursors beside `data`. */
export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({
    message: z.string(),
    statusCode: z.number().int(),
    data: z.array(item),
    next_cursor: z.string().nullable(),
    prev_cursor: z.string().nullable(),
  });
}

export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(50).describe('Page size (1–1000, default 50).'),
  cursor: z.string().min(1).optional().describe('Opaque cursor from next_cursor or prev_cursor of a previous page.'),
});

export const idParams = z.object({ id: z.string().min(1) });

/** A filter by an Omniport id: a UUID, else 400 (never a database cast error). */
export const idFilter = () => z.string().refine(isUuid, 'must be an Omniport id (a UUID)');

export const isoDate = (d: Date) => d.toISOString();
