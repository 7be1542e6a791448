import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

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
