import type { ContactFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { GgCustomer, GgCustomerChannel } from './types';
import { asRecord, nonEmpty, personName, toDate } from './util';

/** The preferred address of a channel type, else the first one. */
function address(channels: GgCustomerChannel[] | null | undefined, type: string): string | null {
  const of = (channels ?? []).filter((c) => c?.type === type && nonEmpty(c.address));
  return (of.find((c) => c.preferred) ?? of[0])?.address ?? null;
}

/**
 * Gorgias customer → unified contact. The email is the customer's primary `email`, else its preferred
 * email channel; the phone is its preferred phone channel; `note` is the details. Customers have no
 * company in Gorgias (no accounts).
 */
export function unifyCustomer(c: GgCustomer): UnifiedRecord {
  const data = {
    name: personName(c),
    email_address: nonEmpty(c.email) ?? address(c.channels, 'email'),
    phone_number: address(c.channels, 'phone'),
    details: nonEmpty(c.note),
    account_id: null,
  } satisfies ContactFields;
  return {
    objectType: 'ticketing.contact',
    remoteId: String(c.id),
    data,
    remoteData: asRecord(c),
    remoteCreatedAt: toDate(c.created_datetime),
    remoteUpdatedAt: toDate(c.updated_datetime) ?? toDate(c.created_datetime),
  };
}
