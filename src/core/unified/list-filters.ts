import { z } from 'zod';
import { isUuid } from '../access';
import { upperEnum } from './common';
import { TICKET_PRIORITIES, TICKET_STATUSES } from './ticketing';
import type { FieldFilter } from '../../store/unified.repo';

export interface ListFilterSpec {
  /** The query parameter, also the field of the unified object (except `email`). */
  param: string;
  field: string;
  /** equals a scalar field, contains an id in an array field, or one of the object's email addresses. */
  match: FieldFilter['match'];
  query: z.ZodType<string | undefined>;
}

const omniportId = (description: string) =>
  z
    .string()
    .refine(isUuid, 'must be an Omniport id')
    .optional()
    .describe(description);

const equalsId = (param: string, description: string): ListFilterSpec => ({ param, field: param, match: 'equals', query: omniportId(description) });

const byOwner = equalsId('user_id', 'Only objects owned by this CRM user (Omniport id).');
const byCompany = equalsId('company_id', 'Only objects of this company (Omniport id).');

/**
 * The field filters of each list, all exact matches combined with AND. Every one is backed by a partial
 * index of the store (migration 0010_list_field_filters), so a filtered page stays one index scan.
 */
export const LIST_FILTERS: Record<string, ListFilterSpec[]> = {
  'ticketing.ticket': [
    { param: 'status', field: 'status', match: 'equals', query: upperEnum(TICKET_STATUSES).optional().describe('Only tickets with this status.') },
    { param: 'priority', field: 'priority', match: 'equals', query: upperEnum(TICKET_PRIORITIES).optional().describe('Only tickets with this priority.') },
    { param: 'assigned_to', field: 'assigned_to', match: 'contains', query: omniportId('Only tickets assigned to this user (Omniport id; one of assigned_to).') },
    equalsId('project_id', 'Only tickets of this collection (Omniport id).'),
    equalsId('account_id', 'Only tickets of this account (Omniport id).'),
    equalsId('contact_id', 'Only tickets of this contact (Omniport id).'),
  ],
  'crm.contact': [
    byCompany,
    byOwner,
    {
      param: 'email',
      field: 'email_addresses',
      match: 'email',
      query: z.string().min(1).max(320).optional().describe('Only contacts with this email address (exact match, as stored).'),
    },
  ],
  'crm.company': [byOwner],
  'crm.deal': [byCompany, equalsId('stage_id', 'Only deals in this stage (Omniport id).'), byOwner],
  'crm.note': [byCompany, byOwner],
  'crm.task': [byCompany, byOwner],
  'crm.engagement': [byCompany, byOwner],
};

/** The query parameters of an object type's filters, for its list route's schema. */
export function listFilterQuery(objectType: string): z.ZodObject {
  return z.object(Object.fromEntries((LIST_FILTERS[objectType] ?? []).map((f) => [f.param, f.query])));
}

/** The filters a parsed query asks for. */
export function fieldFiltersOf(objectType: string, query: Record<string, unknown>): FieldFilter[] {
  return (LIST_FILTERS[objectType] ?? []).flatMap((f) => {
    const value = query[f.param];
    return typeof value === 'string' ? [{ field: f.field, match: f.match, value }] : [];
  });
}
