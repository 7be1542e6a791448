/**
 * Close objects as the API answers them. Only what the adapter reads is typed; everything else travels
 * untouched in `remote_data` (custom field values are top-level `custom.cf_…` keys).
 */

export interface CloseEmail {
  email?: string | null;
  type?: string | null;
}

export interface ClosePhone {
  phone?: string | null;
  type?: string | null;
}

export interface CloseAddress {
  label?: string | null;
  address_1?: string | null;
  address_2?: string | null;
  city?: string | null;
  state?: string | null;
  zipcode?: string | null;
  country?: string | null;
}

interface Stamped {
  id: string;
  date_created?: string | null;
  date_updated?: string | null;
}

export interface CloseLead extends Stamped {
  name?: string | null;
  display_name?: string | null;
  description?: string | null;
  url?: string | null;
  status_id?: string | null;
  addresses?: CloseAddress[] | null;
  contacts?: CloseContact[] | null;
}

export interface CloseContact extends Stamped {
  lead_id?: string | null;
  name?: string | null;
  title?: string | null;
  emails?: CloseEmail[] | null;
  phones?: ClosePhone[] | null;
}

export interface CloseOpportunity extends Stamped {
  lead_id?: string | null;
  contact_id?: string | null;
  user_id?: string | null;
  status_id?: string | null;
  note?: string | null;
  /** Whole cents (Close stores minor units). */
  value?: number | null;
  value_currency?: string | null;
  value_period?: string | null;
  date_won?: string | null;
}

export interface CloseTask extends Stamped {
  _type?: string | null;
  lead_id?: string | null;
  contact_id?: string | null;
  assigned_to?: string | null;
  text?: string | null;
  date?: string | null;
  is_complete?: boolean | null;
}

export interface CloseActivity extends Stamped {
  _type?: string | null;
  lead_id?: string | null;
  contact_id?: string | null;
  user_id?: string | null;
  activity_at?: string | null;
  /** Note, call: the text. */
  note?: string | null;
  /** Call. */
  direction?: string | null;
  duration?: number | null;
  /** Meeting. */
  title?: string | null;
  starts_at?: string | null;
  ends_at?: string | null;
  attendees?: { contact_id?: string | null; email?: string | null }[] | null;
}

export interface CloseUser {
  id: string;
  first_name?: string | null;
  last_name?: string | null;
  email?: string | null;
  date_created?: string | null;
  date_updated?: string | null;
}

export interface CloseStatus {
  id: string;
  label?: string | null;
  type?: string | null;
}

export interface ClosePipeline {
  id: string;
  name?: string | null;
  statuses?: CloseStatus[] | null;
}

export interface CloseCustomField {
  id: string;
  name?: string | null;
  type?: string | null;
  accepts_multiple_values?: boolean | null;
  choices?: string[] | null;
}

/** A list answer: `{data, has_more}`; the event log answers `{data, cursor_next}`. */
export interface CloseList<T> {
  data?: T[] | null;
  has_more?: boolean | null;
  cursor_next?: string | null;
}

export interface CloseEvent {
  id: string;
  object_type?: string | null;
  object_id?: string | null;
  action?: string | null;
  date_updated?: string | null;
  data?: Record<string, unknown> | null;
  previous_data?: Record<string, unknown> | null;
}
