import { AppError } from '../../core/errors';
import { unsupportedBy } from '../kit';
export { asRecord, nonEmpty, toDate, toIso } from '../kit';

/** What the product cannot take: a 422 naming the field, never a silent drop. */
export const unsupported = unsupportedBy('linear');

/** Linear ids are UUIDs; anything else given as a remote id cannot name a Linear object. */
export function linearId(remoteId: string, field: string): string {
  const s = String(remoteId).trim();
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s)) {
    throw new AppError('unknown_reference', `${field}: ${JSON.stringify(remoteId)} is not a Linear id`, { field });
  }
  return s;
}

