import { AppError } from '../../core/errors';
import { unsupportedBy } from '../kit';
export { asRecord, nonEmpty, toDate, toIso } from '../kit';

export const PROVIDER = 'servicenow';

/** ServiceNow cannot take the field: answered as 422 with the field named, never dropped silently. */
export const unsupported = unsupportedBy(PROVIDER);

/** A Date as ServiceNow's internal datetime value (UTC, to the second). */
export const snTime = (d: Date) => d.toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, '');

/** A reference field's sys_id: a plain string with `sysparm_exclude_reference_link=true`, else `{link, value}`. */
export function refId(v: unknown): string | null {
  if (typeof v === 'string') return v.trim() === '' ? null : v;
  if (v && typeof v === 'object' && typeof (v as { value?: unknown }).value === 'string') return refId((v as { value: string }).value);
  return null;
}

/** A remote id we were given, checked to be a sys_id (32 hex characters). */
export function sysId(remoteId: string, field: string): string {
  const s = String(remoteId).trim();
  if (!/^[0-9a-f]{32}$/i.test(s)) throw new AppError('unknown_reference', `${field}: ${JSON.stringify(remoteId)} is not a ServiceNow sys_id`, { field });
  return s;
}
