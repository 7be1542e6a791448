import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

// Millisecond precision, so a JavaScript Date carries the exact value through keyset cursors.
const nowMs = sql`date_trunc('milliseconds', now())`;
const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().default(nowMs);
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().default(nowMs);

/** A tenant. Every other row belongs to exactly one project. */
export const projects = pgTable('projects', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  name: text('name').notNull(),
  syncIntervalMinutes: integer('sync_interval_minutes').notNull().default(60),
  createdAt: createdAt(),
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    email: text('email'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_project_name_uq').on(t.projectId, t.name)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** SHA-256 of the key; the key itself is shown once and never stored. */
    keyHash: text('key_hash').notNull(),
    /** First characters of the key, enough to recognise it in a list. */
    keyPrefix: text('key_prefix').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('api_keys_hash_uq').on(t.keyHash), index('api_keys_project_idx').on(t.projectId)],
);

export const linkedUsers = pgTable(
  'linked_users',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    originId: text('origin_id').notNull(),
    alias: text('alias'),
    email: text('email'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('linked_users_project_origin_uq').on(t.projectId, t.originId)],
);

export const connections = pgTable(
  'connections',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    linkedUserId: uuid('linked_user_id').notNull().references(() => linkedUsers.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    vertical: text('vertical').notNull(),
    /** valid | needs_reauth | disabled */
    status: text('status').notNull().default('valid'),
    /** SHA-256 of the connection token, for lookup. */
    tokenHash: text('token_hash').notNull(),
    /** The token itself, encrypted, so GET /connections can show it to the developer. */
    tokenEncrypted: text('token_encrypted').notNull(),
    /** Provider credentials as encrypted JSON (AES-256-GCM). */
    credentialsEncrypted: text('credentials_encrypted').notNull(),
    baseUrl: text('base_url'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('connections_token_hash_uq').on(t.tokenHash),
    index('connections_project_idx').on(t.projectId, t.createdAt, t.id),
    index('connections_linked_user_idx').on(t.linkedUserId),
  ],
);

/**
 * Every unified object (ticket, comment, contact, deal …) of every connection, with the provider's
 * original object. The id is derived from (connection, type, remote id), so it never changes.
 */
export const unifiedObjects = pgTable(
  'unified_objects',
  {
    id: uuid('id').primaryKey(),
    /** Insertion order, for keyset pagination. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    connectionId: uuid('connection_id').notNull().references(() => connections.id, { onDelete: 'cascade' }),
    objectType: text('object_type').notNull(),
    remoteId: text('remote_id').notNull(),
    /** The object this one belongs to (the ticket of a comment). */
    parentId: uuid('parent_id'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    remoteData: jsonb('remote_data').$type<Record<string, unknown>>().notNull(),
    fieldMappings: jsonb('field_mappings').$type<Record<string, unknown>>().notNull().default({}),
    remoteCreatedAt: timestamp('remote_created_at', { withTimezone: true, mode: 'date' }),
    remoteUpdatedAt: timestamp('remote_updated_at', { withTimezone: true, mode: 'date' }),
    remoteWasDeleted: boolean('remote_was_deleted').notNull().default(false),
    /** The sync run that last saw the object; a completed full run marks the unseen ones deleted. */
    lastSeenRun: uuid('last_seen_run'),
    createdAt: createdAt(),
    modifiedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('unified_objects_remote_uq').on(t.connectionId, t.objectType, t.remoteId),
    index('unified_objects_list_idx').on(t.connectionId, t.objectType, t.seq),
    index('unified_objects_parent_idx').on(t.parentId),
  ],
);

/** Progress of one sync stream of one connection: what to resume from, and since when to ask next time. */
export const syncStates = pgTable(
  'sync_states',
  {
    connectionId: uuid('connection_id').notNull().references(() => connections.id, { onDelete: 'cascade' }),
    stream: text('stream').notNull(),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    /** idle | running | failed */
    status: text('status').notNull().default('idle'),
    runId: uuid('run_id'),
    mode: text('mode'),
    /** Position after the last saved batch of the current run. */
    resume: text('resume'),
    runStartedAt: timestamp('run_started_at', { withTimezone: true, mode: 'date' }),
    /** Start of the last successful run: the next incremental run asks for changes since then (minus an overlap). */
    watermark: timestamp('watermark', { withTimezone: true, mode: 'date' }),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    recordsInRun: integer('records_in_run').notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.stream] })],
);

/** Files posted to POST /ticketing/attachments, waiting to be attached to a comment. */
export const uploads = pgTable('uploads', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  connectionId: uuid('connection_id').notNull().references(() => connections.id, { onDelete: 'cascade' }),
  fileName: text('file_name').notNull(),
  contentType: text('content_type').notNull(),
  /** Either the bytes (base64) or a URL fetched when the file is attached. */
  contentBase64: text('content_base64'),
  fileUrl: text('file_url'),
  createdAt: createdAt(),
});
