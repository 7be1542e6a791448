import { z } from 'zod';
import { fieldMappingsInput, isoDateTime, unifiedMeta, upperEnum } from './common';

export const TICKET_STATUSES = ['OPEN', 'IN_PROGRESS', 'ON_HOLD', 'CLOSED'] as const;
export const TICKET_PRIORITIES = ['URGENT', 'HIGH', 'MEDIUM', 'LOW'] as const;
export const CREATOR_TYPES = ['USER', 'CONTACT'] as const;

export type TicketStatus = (typeof TICKET_STATUSES)[number];
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];

/** Unified ticketing object types, as stored and as named in field mappings. */
export const TICKETING_OBJECTS = [
  'ticketing.ticket',
  'ticketing.comment',
  'ticketing.attachment',
  'ticketing.user',
  'ticketing.contact',
  'ticketing.account',
  'ticketing.tag',
  'ticketing.team',
  'ticketing.collection',
] as const;
export type TicketingObject = (typeof TICKETING_OBJECTS)[number];

// ---- Unified fields (what an adapter produces when it unifies a provider object). References are Omniport ids.

export interface TicketFields {
  name: string | null;
  status: TicketStatus | null;
  description: string[];
  due_date: string | null;
  type: string | null;
  parent_ticket: string | null;
  project_id: string | null;
  tags: string[];
  completed_at: string | null;
  priority: TicketPriority | null;
  assigned_to: string[];
  account_id: string | null;
  contact_id: string | null;
}

export interface CommentFields {
  body: string | null;
  html_body: string | null;
  is_private: boolean | null;
  creator_type: (typeof CREATOR_TYPES)[number] | null;
  ticket_id: string | null;
  contact_id: string | null;
  user_id: string | null;
  /** Omniport ids of the comment's attachments (expanded to Attachment objects in responses). */
  attachments: string[];
}

export interface AttachmentFields {
  file_name: string | null;
  file_url: string | null;
  uploader: string | null;
  ticket_id: string | null;
  comment_id: string | null;
}

export interface UserFields {
  name: string | null;
  email_address: string | null;
  teams: string[];
  account_id: string | null;
}

export interface ContactFields {
  name: string | null;
  email_address: string | null;
  phone_number: string | null;
  details: string | null;
  account_id: string | null;
}

export interface AccountFields {
  name: string | null;
  domains: string[];
}

export interface TagFields {
  name: string;
}

export interface TeamFields {
  name: string | null;
  description: string | null;
}

export interface CollectionFields {
  name: string | null;
  description: string | null;
  collection_type: string | null;
  parent_id: string | null;
}

// ---- Request bodies

const idString = z.string().min(1);

export const ticketInput = z.strictObject({
  name: z.string().min(1).max(10_000).optional(),
  status: upperEnum(TICKET_STATUSES).optional(),
  description: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe('A string or an array of strings (paragraphs); answered as an array.'),
  due_date: isoDateTime.optional(),
  type: z.string().min(1).optional().describe('The provider’s own ticket type name.'),
  parent_ticket: idString.optional(),
  project_id: idString.optional().describe('Omniport id of a collection (project, repository …).'),
  tags: z.array(z.string().min(1)).optional(),
  completed_at: isoDateTime.optional(),
  priority: upperEnum(TICKET_PRIORITIES).optional(),
  assigned_to: z.array(idString).optional().describe('Omniport ids of users.'),
  comment: z
    .union([z.string().min(1), z.array(z.string().min(1))])
    .optional()
    .describe('Comment bodies added at creation (the first is the ticket’s opening comment where the provider has one).'),
  account_id: idString.optional(),
  contact_id: idString.optional(),
  field_mappings: fieldMappingsInput,
});
export type TicketInput = z.infer<typeof ticketInput>;

export const ticketPatch = ticketInput.omit({ comment: true }).extend({ id: idString.optional() });
export type TicketPatch = z.infer<typeof ticketPatch>;

export const commentInput = z.strictObject({
  body: z.string().optional(),
  html_body: z.string().optional(),
  is_private: z.boolean().optional(),
  creator_type: upperEnum(CREATOR_TYPES).optional(),
  ticket_id: idString,
  contact_id: idString.optional(),
  user_id: idString.optional(),
  attachments: z
    .array(z.string().min(1))
    .max(20)
    .optional()
    .describe('Each: an Omniport attachment id (POST /ticketing/attachments), a data: URL, or an https: URL.'),
  field_mappings: fieldMappingsInput,
});
export type CommentInput = z.infer<typeof commentInput>;

export const attachmentInput = z
  .strictObject({
    file_name: z.string().min(1).max(255),
    file_url: z.url({ protocol: /^https?$/ }).optional(),
    content: z.base64().optional().describe('The file, base64-encoded.'),
    content_type: z.string().optional(),
    uploader: z
      .string()
      .min(1)
      .optional()
      .describe(
        'The Panora client’s field: the Omniport id of a user of the connection (422 otherwise). The provider records the author of the comment the file is attached to as its uploader; this value is checked and answered back, not sent.',
      ),
    field_mappings: z.strictObject({}).optional().describe('Accepted empty, as the Panora client sends it: attachments carry no custom fields.'),
  })
  .refine((v) => (v.file_url ? !v.content : Boolean(v.content)), { message: 'give exactly one of file_url or content', path: ['content'] });
export type AttachmentInput = z.infer<typeof attachmentInput>;

// ---- Response schemas

const nullableString = z.string().nullable();

export const attachmentSchema = z
  .object({
    ...unifiedMeta,
    file_name: nullableString,
    file_url: nullableString,
    uploader: nullableString,
    ticket_id: nullableString,
    comment_id: nullableString,
  })
  .meta({ id: 'Attachment' });

export const ticketSchema = z
  .object({
    ...unifiedMeta,
    name: nullableString,
    status: nullableString,
    description: z.array(z.string()),
    due_date: nullableString,
    type: nullableString,
    parent_ticket: nullableString,
    project_id: nullableString,
    tags: z.array(z.string()),
    completed_at: nullableString,
    priority: nullableString,
    assigned_to: z.array(z.string()),
    account_id: nullableString,
    contact_id: nullableString,
  })
  .meta({ id: 'Ticket' });

export const commentSchema = z
  .object({
    ...unifiedMeta,
    body: nullableString,
    html_body: nullableString,
    is_private: z.boolean().nullable(),
    creator_type: nullableString,
    ticket_id: nullableString,
    contact_id: nullableString,
    user_id: nullableString,
    attachments: z.array(attachmentSchema),
  })
  .meta({ id: 'Comment' });

export const userSchema = z
  .object({ ...unifiedMeta, name: nullableString, email_address: nullableString, teams: z.array(z.string()), account_id: nullableString })
  .meta({ id: 'TicketingUser' });

export const contactSchema = z
  .object({
    ...unifiedMeta,
    name: nullableString,
    email_address: nullableString,
    phone_number: nullableString,
    details: nullableString,
    account_id: nullableString,
  })
  .meta({ id: 'TicketingContact' });

export const accountSchema = z.object({ ...unifiedMeta, name: nullableString, domains: z.array(z.string()) }).meta({ id: 'TicketingAccount' });
export const tagSchema = z.object({ ...unifiedMeta, name: z.string() }).meta({ id: 'Tag' });
export const teamSchema = z.object({ ...unifiedMeta, name: nullableString, description: nullableString }).meta({ id: 'Team' });
export const collectionSchema = z
  .object({ ...unifiedMeta, name: nullableString, description: nullableString, collection_type: nullableString, parent_id: nullableString })
  .meta({ id: 'Collection' });
