import type { IdOf } from '../../core/unified/ids';
import type { z } from 'zod';
import { AppError } from '../../core/errors';
import type { engagementInput } from '../../core/unified/crm';
import type { UnifiedRecord } from '../types';
import { idsOf } from './associations';
import type { WriteContext } from './contact-info';
import { many, record, single, type Desunified } from './record';
import type { AssociationMap, HsObject, HsType } from './types';
import { dateTimeValue, prop, hubspotDate, hubspotIso, unsupported } from './util';

export type EngagementWrite = Partial<z.infer<typeof engagementInput>>;
export type EngagementHsType = Extract<HsType, 'calls' | 'meetings' | 'emails'>;

export const ENGAGEMENT_TYPES: Record<'CALL' | 'MEETING' | 'EMAIL', EngagementHsType> = { CALL: 'calls', MEETING: 'meetings', EMAIL: 'emails' };
const UNIFIED_TYPE: Record<EngagementHsType, 'CALL' | 'MEETING' | 'EMAIL'> = { calls: 'CALL', meetings: 'MEETING', emails: 'EMAIL' };

const COMMON = ['hs_timestamp', 'hubspot_owner_id', 'hs_createdate', 'hs_lastmodifieddate'];
export const ENGAGEMENT_PROPERTIES: Record<EngagementHsType, string[]> = {
  calls: ['hs_call_title', 'hs_call_body', 'hs_call_direction', 'hs_call_duration', ...COMMON],
  meetings: ['hs_meeting_title', 'hs_meeting_body', 'hs_meeting_start_time', 'hs_meeting_end_time', ...COMMON],
  emails: ['hs_email_subject', 'hs_email_text', 'hs_email_html', 'hs_email_direction', ...COMMON],
};

/** `hs_email_direction` → unified direction (a forwarded email went out). */
export function emailDirection(v: string | null): 'INBOUND' | 'OUTBOUND' | null {
  if (v === 'INCOMING_EMAIL') return 'INBOUND';
  if (v === 'EMAIL' || v === 'FORWARDED_EMAIL') return 'OUTBOUND';
  return null;
}

export function hsEmailDirection(direction: string): string {
  return direction === 'INBOUND' ? 'INCOMING_EMAIL' : 'EMAIL';
}

function callDirection(v: string | null): 'INBOUND' | 'OUTBOUND' | null {
  return v === 'INBOUND' || v === 'OUTBOUND' ? v : null;
}

/** A call ends `hs_call_duration` milliseconds after it starts. */
function callEnd(start: string | null, duration: string | null): string | null {
  const s = hubspotDate(start);
  const d = duration === null ? NaN : Number(duration);
  return s && Number.isFinite(d) ? new Date(s.getTime() + d).toISOString() : null;
}

/** HubSpot call, meeting or email → crm.engagement. */
export function unifyEngagement(o: HsObject, hsType: EngagementHsType, assoc: AssociationMap, ids: IdOf): UnifiedRecord {
  const p = o.properties ?? {};
  const common = {
    type: UNIFIED_TYPE[hsType],
    user_id: ids('crm.user', prop(p, 'hubspot_owner_id')),
    company_id: ids('crm.company', assoc.companies?.[0]?.id ?? null),
    contact_ids: idsOf(assoc.contacts).map((id) => ids('crm.contact', id)!),
  };
  switch (hsType) {
    case 'calls':
      return record('crm.engagement', o, {
        ...common,
        subject: prop(p, 'hs_call_title'),
        content: prop(p, 'hs_call_body'),
        direction: callDirection(prop(p, 'hs_call_direction')),
        start_at: hubspotIso(prop(p, 'hs_timestamp')),
        end_time: callEnd(prop(p, 'hs_timestamp'), prop(p, 'hs_call_duration')),
      });
    case 'meetings':
      return record('crm.engagement', o, {
        ...common,
        subject: prop(p, 'hs_meeting_title'),
        content: prop(p, 'hs_meeting_body'),
        direction: null,
        start_at: hubspotIso(prop(p, 'hs_meeting_start_time') ?? prop(p, 'hs_timestamp')),
        end_time: hubspotIso(prop(p, 'hs_meeting_end_time')),
      });
    case 'emails':
      return record('crm.engagement', o, {
        ...common,
        subject: prop(p, 'hs_email_subject'),
        content: prop(p, 'hs_email_text') ?? prop(p, 'hs_email_html'),
        direction: emailDirection(prop(p, 'hs_email_direction')),
        start_at: hubspotIso(prop(p, 'hs_timestamp')),
        end_time: null,
      });
  }
}

/**
 * Unified engagement → properties of its HubSpot type. `current` is the stored object on updates (a
 * call's duration is computed from its start). `hs_timestamp` (required) is the start, else now.
 */
export function desunifyEngagement(input: EngagementWrite, hsType: EngagementHsType, ctx: WriteContext & { current?: HsObject }): Desunified {
  const properties: Record<string, string> = {};
  const start = input.start_at !== undefined ? dateTimeValue(input.start_at) : undefined;
  if (start !== undefined) properties.hs_timestamp = start;
  else if (ctx.mode === 'create') properties.hs_timestamp = ctx.now.toISOString();
  if (input.user_id !== undefined) properties.hubspot_owner_id = input.user_id;

  switch (hsType) {
    case 'calls': {
      if (input.subject !== undefined) properties.hs_call_title = input.subject;
      if (input.content !== undefined) properties.hs_call_body = input.content;
      if (input.direction !== undefined) properties.hs_call_direction = input.direction;
      if (input.end_time !== undefined) {
        const from = hubspotDate(properties.hs_timestamp ?? ctx.current?.properties?.hs_timestamp);
        const to = hubspotDate(input.end_time)!;
        if (!from) throw unsupported('end_time', 'a call without a start (start_at) has no duration');
        if (to.getTime() < from.getTime()) throw new AppError('unprocessable', 'end_time: before the call’s start_at', { field: 'end_time' });
        properties.hs_call_duration = String(to.getTime() - from.getTime());
      }
      break;
    }
    case 'meetings': {
      if (input.direction !== undefined) throw unsupported('direction', 'HubSpot meetings have no direction');
      if (input.subject !== undefined) properties.hs_meeting_title = input.subject;
      if (input.content !== undefined) properties.hs_meeting_body = input.content;
      if (start !== undefined) properties.hs_meeting_start_time = start;
      else if (ctx.mode === 'create') properties.hs_meeting_start_time = properties.hs_timestamp!;
      if (input.end_time !== undefined) properties.hs_meeting_end_time = dateTimeValue(input.end_time);
      break;
    }
    case 'emails': {
      if (input.end_time !== undefined) throw unsupported('end_time', 'HubSpot emails have no end time');
      if (input.subject !== undefined) properties.hs_email_subject = input.subject;
      if (input.content !== undefined) properties.hs_email_text = input.content;
      if (input.direction !== undefined) properties.hs_email_direction = hsEmailDirection(input.direction);
      break;
    }
  }
  return {
    properties,
    intents: [...single('company_id', input.company_id, 'companies', 'replace'), ...many('contact_ids', input.contact_ids, 'contacts')],
  };
}
