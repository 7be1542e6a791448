import type { IdOf } from '../../core/unified/ids';
import type { CrmWrite, UnifiedRecord } from '../types';
import { activityStart, primaryParticipants, splitDateTime } from './activity';
import type { PdActivity } from './types';
import { asRecord, has, nonEmpty, pdId, toDate, toIso, unsupported } from './util';

/** Pipedrive activity of a task type (task, deadline, custom types) → crm.task; `done` is the status. */
export function unifyTask(a: PdActivity, ids: IdOf): UnifiedRecord {
  return {
    objectType: 'crm.task',
    remoteId: String(a.id),
    data: {
      subject: nonEmpty(a.subject),
      content: nonEmpty(a.note),
      status: a.done === true ? 'COMPLETED' : 'PENDING',
      due_date: activityStart(a),
      finished_date: toIso(a.marked_as_done_time),
      user_id: ids('crm.user', a.owner_id),
      company_id: ids('crm.company', a.org_id),
      contact_id: ids('crm.contact', a.person_id),
      deal_id: ids('crm.deal', a.deal_id),
    },
    remoteData: asRecord(a),
    remoteCreatedAt: toDate(a.add_time),
    remoteUpdatedAt: toDate(a.update_time),
    ...(a.is_deleted === true ? { deleted: true } : {}),
  };
}

/**
 * crm.task fields → Pipedrive activity body (API v2); a new task is an activity of type `task`. The contact
 * becomes the task's only (primary) participant: v2 refuses `person_id` as read-only.
 */
export function desunifyTask(input: CrmWrite, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = create ? { type: 'task' } : {};
  if (has(input, 'subject')) body.subject = input.subject;
  if (has(input, 'content')) body.note = input.content;
  if (has(input, 'status')) body.done = input.status === 'COMPLETED';
  if (has(input, 'due_date')) Object.assign(body, splitDateTime(String(input.due_date), 'due_date'));
  if (has(input, 'finished_date')) {
    throw unsupported('finished_date', 'Pipedrive records when a task was done itself; set status COMPLETED instead');
  }
  if (has(input, 'user_id')) body.owner_id = pdId(input.user_id, 'user_id');
  if (has(input, 'company_id')) body.org_id = pdId(input.company_id, 'company_id');
  if (has(input, 'contact_id')) body.participants = primaryParticipants([pdId(input.contact_id, 'contact_id')]);
  if (has(input, 'deal_id')) body.deal_id = pdId(input.deal_id, 'deal_id');
  return body;
}
