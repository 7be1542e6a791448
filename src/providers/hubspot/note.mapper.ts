import type { IdOf } from '../../core/unified/ids';
import type { z } from 'zod';
import type { noteInput } from '../../core/unified/crm';
import type { UnifiedRecord } from '../types';
import type { WriteContext } from './contact-info';
import { record, single, type Desunified } from './record';
import type { AssociationMap, HsObject } from './types';
import { prop } from './util';

export type NoteWrite = Partial<z.infer<typeof noteInput>>;

export const NOTE_PROPERTIES = ['hs_note_body', 'hs_timestamp', 'hubspot_owner_id', 'hs_createdate', 'hs_lastmodifieddate'];

const first = (list: { id: string }[] | undefined) => list?.[0]?.id ?? null;

/** HubSpot note → crm.note; its contact, company and deal are the first associated ones. */
export function unifyNote(o: HsObject, assoc: AssociationMap, ids: IdOf): UnifiedRecord {
  const p = o.properties ?? {};
  return record('crm.note', o, {
    content: prop(p, 'hs_note_body'),
    user_id: ids('crm.user', prop(p, 'hubspot_owner_id')),
    company_id: ids('crm.company', first(assoc.companies)),
    contact_id: ids('crm.contact', first(assoc.contacts)),
    deal_id: ids('crm.deal', first(assoc.deals)),
  });
}

/** `hs_timestamp` (required by HubSpot) is the creation time. */
export function desunifyNote(input: NoteWrite, ctx: WriteContext): Desunified {
  const properties: Record<string, string> = {};
  if (input.content !== undefined) properties.hs_note_body = input.content;
  if (input.user_id !== undefined) properties.hubspot_owner_id = input.user_id;
  if (ctx.mode === 'create') properties.hs_timestamp = ctx.now.toISOString();
  return {
    properties,
    intents: [
      ...single('contact_id', input.contact_id, 'contacts', 'replace'),
      ...single('company_id', input.company_id, 'companies', 'replace'),
      ...single('deal_id', input.deal_id, 'deals', 'replace'),
    ],
  };
}
