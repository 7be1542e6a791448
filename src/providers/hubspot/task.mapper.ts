import type { IdOf } from '../../core/unified/ids';
import type { z } from 'zod';
import type { taskInput } from '../../core/unified/crm';
import type { UnifiedRecord } from '../types';
import type { WriteContext } from './contact-info';
import { record, single, type Desunified } from './record';
import type { AssociationMap, HsObject } from './types';
import { dateTimeValue, prop, hubspotIso, unsupported } from './util';

export type TaskWrite = Partial<z.infer<typeof taskInput>>;

export const TASK_PROPERTIES = [
  'hs_task_subject',
  'hs_task_body',
  'hs_task_status',
  'hs_timestamp',
  'hs_task_completion_date',
  'hubspot_owner_id',
  'hs_createdate',
  'hs_lastmodifieddate',
];

/** HubSpot `hs_task_status` → unified status: COMPLETED stays, every open status is PENDING. */
export function taskStatus(hs: string | null): 'PENDING' | 'COMPLETED' | null {
  if (hs === null) return null;
  return hs === 'COMPLETED' ? 'COMPLETED' : 'PENDING';
}

/** Unified status → `hs_task_status`: PENDING is NOT_STARTED. */
export function hsTaskStatus(status: string): string {
  return status === 'COMPLETED' ? 'COMPLETED' : 'NOT_STARTED';
}

const first = (list: { id: string }[] | undefined) => list?.[0]?.id ?? null;

/** HubSpot task → crm.task: the due date is `hs_timestamp`, the finish date `hs_task_completion_date`. */
export function unifyTask(o: HsObject, assoc: AssociationMap, ids: IdOf): UnifiedRecord {
  const p = o.properties ?? {};
  return record('crm.task', o, {
    subject: prop(p, 'hs_task_subject'),
    content: prop(p, 'hs_task_body'),
    status: taskStatus(prop(p, 'hs_task_status')),
    due_date: hubspotIso(prop(p, 'hs_timestamp')),
    finished_date: hubspotIso(prop(p, 'hs_task_completion_date')),
    user_id: ids('crm.user', prop(p, 'hubspot_owner_id')),
    company_id: ids('crm.company', first(assoc.companies)),
    contact_id: ids('crm.contact', first(assoc.contacts)),
    deal_id: ids('crm.deal', first(assoc.deals)),
  });
}

export function desunifyTask(input: TaskWrite, ctx: WriteContext): Desunified {
  const properties: Record<string, string> = {};
  if (input.finished_date !== undefined) {
    throw unsupported('finished_date', 'HubSpot sets a task’s completion date itself when its status becomes COMPLETED');
  }
  if (input.subject !== undefined) properties.hs_task_subject = input.subject;
  if (input.content !== undefined) properties.hs_task_body = input.content;
  if (input.status !== undefined) properties.hs_task_status = hsTaskStatus(input.status);
  if (input.due_date !== undefined) properties.hs_timestamp = dateTimeValue(input.due_date);
  // HubSpot requires hs_timestamp: a task without a due date is due now.
  else if (ctx.mode === 'create') properties.hs_timestamp = ctx.now.toISOString();
  if (input.user_id !== undefined) properties.hubspot_owner_id = input.user_id;
  return {
    properties,
    intents: [
      ...single('contact_id', input.contact_id, 'contacts', 'replace'),
      ...single('company_id', input.company_id, 'companies', 'replace'),
      ...single('deal_id', input.deal_id, 'deals', 'replace'),
    ],
  };
}
