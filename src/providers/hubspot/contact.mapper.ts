import type { IdOf } from '../../core/unified/ids';
import type { z } from 'zod';
import type { contactInput } from '../../core/unified/crm';
import type { UnifiedRecord } from '../types';
import { primaryOf } from './associations';
import { CONTACT_ADDRESS, CONTACT_PHONES, readAddress, readEmails, readPhones, writeAddress, writeContactEmails, writePhones, type WriteContext } from './contact-info';
import { record, single, type Desunified } from './record';
import type { AssociationMap, HsObject } from './types';
import { prop } from './util';

export type ContactWrite = Partial<z.infer<typeof contactInput>>;

/** Properties read for contacts (custom properties are added at run time). */
export const CONTACT_PROPERTIES = [
  'firstname',
  'lastname',
  'email',
  'hs_additional_emails',
  'phone',
  'mobilephone',
  'fax',
  'address',
  'city',
  'state',
  'zip',
  'country',
  'hubspot_owner_id',
  'createdate',
  'lastmodifieddate',
];

/** HubSpot contact → crm.contact; `company_id` is the primary associated company. */
export function unifyContact(o: HsObject, assoc: AssociationMap, ids: IdOf): UnifiedRecord {
  const p = o.properties ?? {};
  return record('crm.contact', o, {
    first_name: prop(p, 'firstname'),
    last_name: prop(p, 'lastname'),
    email_addresses: readEmails(p, 'CONTACT'),
    phone_numbers: readPhones(p, CONTACT_PHONES, 'CONTACT'),
    addresses: readAddress(p, CONTACT_ADDRESS, 'CONTACT'),
    user_id: ids('crm.user', prop(p, 'hubspot_owner_id')),
    company_id: ids('crm.company', primaryOf(assoc.companies)),
  });
}

export function desunifyContact(input: ContactWrite, ctx: WriteContext): Desunified {
  const properties: Record<string, string> = {};
  if (input.first_name !== undefined) properties.firstname = input.first_name;
  if (input.last_name !== undefined) properties.lastname = input.last_name;
  writeContactEmails(input.email_addresses, ctx, properties);
  writePhones(input.phone_numbers, CONTACT_PHONES, 'contacts', ctx, properties);
  writeAddress(input.addresses, CONTACT_ADDRESS, 'contact', ctx, properties);
  if (input.user_id !== undefined) properties.hubspot_owner_id = input.user_id;
  return { properties, intents: single('company_id', input.company_id, 'companies', 'primary') };
}
