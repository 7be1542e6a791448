import { AppError } from '../../core/errors';
import { unsupportedBy } from '../kit';
export { asRecord, nonEmpty, toDate, toIso } from '../kit';

/** What the product cannot take: a 422 naming the field, never a silent drop. */
export const unsupported = unsupportedBy('jira');

/** A numeric Jira id (issue, project, comment, attachment) we were given as a remote id. */
export function jiraId(remoteId: string | number, field: string): string {
  const s = String(remoteId).trim();
  if (!/^\d{1,19}$/.test(s)) throw new AppError('unknown_reference', `${field}: ${JSON.stringify(remoteId)} is not a Jira id`, { field });
  return s;
}

