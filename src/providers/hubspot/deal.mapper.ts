import type { IdOf } from '../../core/unified/ids';
import type { z } from 'zod';
import type { dealInput } from '../../core/unified/crm';
import type { UnifiedRecord } from '../types';
import { idsOf, primaryOf } from './associations';
import { record, many, single, type Desunified } from './record';
import type { AssociationMap, HsObject } from './types';
import { dateTimeValue, prop, hubspotIso } from './util';

export type DealWrite = Partial<z.infer<typeof dealInput>>;

export const DEAL_PROPERTIES = [
  'dealname',
  'description',
  'amount',
  'deal_currency_code',
  'dealstage',
  'pipeline',
  'closedate',
  'hubspot_owner_id',
  'createdate',
  'hs_lastmodifieddate',
];

/**
 * HubSpot deal → crm.deal. `amount` is kept exactly as HubSpot holds it (a string); the stage is the
 * `dealstage` id; `company_id` the primary associated company, `contact_ids` every associated contact.
 */
export function unifyDeal(o: HsObject, assoc: AssociationMap, ids: IdOf): UnifiedRecord {
  const p = o.properties ?? {};
  return record('crm.deal', o, {
    name: prop(p, 'dealname'),
    description: prop(p, 'description'),
    amount: prop(p, 'amount'),
    currency: prop(p, 'deal_currency_code'),
    stage_id: ids('crm.stage', prop(p, 'dealstage')),
    user_id: ids('crm.user', prop(p, 'hubspot_owner_id')),
    company_id: ids('crm.company', primaryOf(assoc.companies)),
    contact_ids: idsOf(assoc.contacts).map((id) => ids('crm.contact', id)!),
    close_date: hubspotIso(prop(p, 'closedate')),
  });
}

/** `pipeline` is added by the caller from the stage's pipeline (stage ids are only valid in their pipeline). */
export function desunifyDeal(input: DealWrite): Desunified {
  const properties: Record<string, string> = {};
  if (input.name !== undefined) properties.dealname = input.name;
  if (input.description !== undefined) properties.description = input.description;
  if (input.amount !== undefined) properties.amount = input.amount;
  if (input.currency !== undefined) properties.deal_currency_code = input.currency;
  if (input.stage_id !== undefined) properties.dealstage = input.stage_id;
  if (input.user_id !== undefined) properties.hubspot_owner_id = input.user_id;
  if (input.close_date !== undefined) properties.closedate = dateTimeValue(input.close_date);
  return {
    properties,
    intents: [...single('company_id', input.company_id, 'companies', 'primary'), ...many('contact_ids', input.contact_ids, 'contacts')],
  };
}
