import type { IdOf } from '../../core/unified/ids';
import type { CrmWrite, UnifiedRecord } from '../types';
import { ACTIVITY_TYPE_OF, ENGAGEMENT_TYPE_OF, activityEnd, activityStart, durationBetween, primaryParticipants, splitDateTime } from './activity';
import type { PdActivity } from './types';
import { asRecord, has, nonEmpty, pdId, toDate, unsupported } from './util';

/** The persons of an activity: its participants (primary first), else its person. */
function personIds(a: PdActivity): number[] {
  const parts = Array.isArray(a.participants) ? a.participants.filter((p) => p && typeof p.person_id === 'number') : [];
  const ordered = [...parts.filter((p) => p.primary === true), ...parts.filter((p) => p.primary !== true)].map((p) => p.person_id as number);
  if (ordered.length === 0 && typeof a.person_id === 'number') ordered.push(a.person_id);
  return [...new Set(ordered)];
}

/** Pipedrive activity of type call, meeting, lunch or email → crm.engagement. */
export function unifyEngagement(a: PdActivity, ids: IdOf): UnifiedRecord {
  return {
    objectType: 'crm.engagement',
    remoteId: String(a.id),
    data: {
      type: (a.type && ENGAGEMENT_TYPE_OF[a.type]) ?? null,
      subject: nonEmpty(a.subject),
      content: nonEmpty(a.note),
      direction: null,
      start_at: activityStart(a),
      end_time: activityEnd(a),
      user_id: ids('crm.user', a.owner_id),
      company_id: ids('crm.company', a.org_id),
      contact_ids: personIds(a).map((id) => ids('crm.contact', id)!),
    },
    remoteData: asRecord(a),
    remoteCreatedAt: toDate(a.add_time),
    remoteUpdatedAt: toDate(a.update_time),
    ...(a.is_deleted === true ? { deleted: true } : {}),
  };
}

/**
 * crm.engagement fields → Pipedrive activity body (API v2). `end_time` becomes the duration from the
 * start (`start_at` of the same write, else the activity's current start). Contacts are participants, the first
 * one primary (which sets the activity's read-only `person_id`).
 */
export function desunifyEngagement(input: CrmWrite, currentStart: string | null): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (has(input, 'type')) body.type = ACTIVITY_TYPE_OF[input.type as string];
  if (has(input, 'subject')) body.subject = input.subject;
  if (has(input, 'content')) body.note = input.content;
  if (has(input, 'direction')) throw unsupported('direction', 'Pipedrive activities have no direction');
  const start = has(input, 'start_at') ? String(input.start_at) : currentStart;
  if (has(input, 'start_at')) Object.assign(body, splitDateTime(start!, 'start_at'));
  if (has(input, 'end_time')) {
    if (!start) throw unsupported('end_time', 'Pipedrive keeps a duration from the start: give start_at too');
    body.duration = durationBetween(start, String(input.end_time), 'end_time');
  }
  if (has(input, 'user_id')) body.owner_id = pdId(input.user_id, 'user_id');
  if (has(input, 'company_id')) body.org_id = pdId(input.company_id, 'company_id');
  if (has(input, 'contact_ids')) {
    const persons = (input.contact_ids as string[]).map((id) => pdId(id, 'contact_ids'));
    body.participants = primaryParticipants(persons);
  }
  return body;
}
