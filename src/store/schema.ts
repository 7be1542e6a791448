import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';

/** A provider record the database refused (after `storable` cleaning): kept out, named in the sync status. */
export interface SkippedRecord {
  object_type: string;
  remote_id: string;
  sqlstate: string;
}

/** How many stored objects a write or a sync run created, really changed, and marked deleted. */
export interface ChangeCounts {
  created: number;
  updated: number;
  deleted: number;
}

// Millisecond precision, so a JavaScript Date carries the exact value through keyset cursors.
const nowMs = sql`date_trunc('milliseconds', now())`;
const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().default(nowMs);
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().default(nowMs);

/** A tenant. Every other row belongs to exactly one project. */
export const projects = pgTable(
  'projects',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    name: text('name').notNull(),
    syncIntervalMinutes: integer('sync_interval_minutes').notNull().default(60),
    /** How often streams without a deletion feed check which objects are gone (ids only); null: never. */
    deletionCheckIntervalMinutes: integer('deletion_check_interval_minutes').default(360),
    /** Every MCP session of the project sees read tools only (src/mcp/scope.ts). */
    mcpReadOnly: boolean('mcp_read_only').notNull().default(false),
    createdAt: createdAt(),
  },
  // Unique: the CLI and operators address projects by name.
  (t) => [uniqueIndex('projects_name_unique').on(t.name)],
);

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
    /** What an AI agent holding this key may call through MCP: read tools only, and/or only these tools (null: all). */
    mcpReadOnly: boolean('mcp_read_only').notNull().default(false),
    mcpTools: jsonb('mcp_tools').$type<string[] | null>(),
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
 * One partial index per filterable field of the stored unified view (`data`). Scalar fields get a b-tree on
 * (connection, type, value, seq), the list order; array fields (`many`) a GIN index on the array.
 */
const LIST_FILTER_INDEXES: { name: string; field: string; objectTypes: string[]; many?: boolean }[] = [
  { name: 'unified_objects_status_idx', field: 'status', objectTypes: ['ticketing.ticket'] },
  { name: 'unified_objects_priority_idx', field: 'priority', objectTypes: ['ticketing.ticket'] },
  { name: 'unified_objects_project_idx', field: 'project_id', objectTypes: ['ticketing.ticket'] },
  { name: 'unified_objects_account_idx', field: 'account_id', objectTypes: ['ticketing.ticket'] },
  { name: 'unified_objects_contact_idx', field: 'contact_id', objectTypes: ['ticketing.ticket'] },
  { name: 'unified_objects_assignee_idx', field: 'assigned_to', objectTypes: ['ticketing.ticket'], many: true },
  { name: 'unified_objects_company_idx', field: 'company_id', objectTypes: ['crm.contact', 'crm.deal', 'crm.note', 'crm.task', 'crm.engagement'] },
  { name: 'unified_objects_owner_idx', field: 'user_id', objectTypes: ['crm.contact', 'crm.company', 'crm.deal', 'crm.note', 'crm.task', 'crm.engagement'] },
  { name: 'unified_objects_stage_idx', field: 'stage_id', objectTypes: ['crm.deal'] },
  { name: 'unified_objects_email_idx', field: 'email_addresses', objectTypes: ['crm.contact'], many: true },
];

const objectTypeIn = (types: string[]) => sql.raw(`object_type in (${types.map((t) => `'${t}'`).join(', ')})`);

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
    remoteCreatedAt: timestamp('remote_created_at', { withTimezone: true, mode: 'date' }),
    remoteUpdatedAt: timestamp('remote_updated_at', { withTimezone: true, mode: 'date' }),
    remoteWasDeleted: boolean('remote_was_deleted').notNull().default(false),
    /**
     * The unified view as JSON text (no remote_data, empty field_mappings), kept by a trigger on every write
     * (migration 0016): list and get answers splice it in instead of building and encoding each object.
     */
    viewJson: text('view_json'),
    /** The sync run that last saw the object; a completed full run marks the unseen ones deleted. */
    lastSeenRun: uuid('last_seen_run'),
    /** When the object entered Omniport's store: the API's `created_at`. */
    createdAt: createdAt(),
    /**
     * When the object last changed in the store (created, unified fields changed, deleted or restored: exactly
     * when a record event is written): the API's `modified_at`. A read that changes nothing leaves it.
     */
    modifiedAt: timestamp('modified_at', { withTimezone: true, mode: 'date' }).notNull().default(nowMs),
    /** Every write, changed or not: what sync runs compare with their start ("written since the run began"). */
    writtenAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('unified_objects_remote_uq').on(t.connectionId, t.objectType, t.remoteId),
    index('unified_objects_list_idx').on(t.connectionId, t.objectType, t.seq),
    // Time filters of lists (TIME_ORDERS in unified.repo.ts): a list filtered on a time is ordered by it and
    // walks its index from the bound, so a page costs the same whatever the size of the store.
    index('unified_objects_created_idx').on(t.connectionId, t.objectType, t.createdAt, t.id),
    index('unified_objects_modified_idx').on(t.connectionId, t.objectType, t.modifiedAt, t.id),
    index('unified_objects_remote_created_idx').on(t.connectionId, t.objectType, t.remoteCreatedAt, t.id),
    index('unified_objects_remote_updated_idx').on(t.connectionId, t.objectType, t.remoteUpdatedAt, t.id),
    index('unified_objects_parent_idx').on(t.parentId),
    // Field filters of lists (UNIFIED_LIST_FILTERS): each walks its own partial index in list order, so a
    // filtered page stays one index scan. Only objects of the types that have the field are indexed.
    ...LIST_FILTER_INDEXES.map(({ name, field, objectTypes, many }) =>
      many
        ? index(name).using('gin', sql`(${t.data} -> ${sql.raw(`'${field}'`)})`).where(objectTypeIn(objectTypes))
        : index(name).on(t.connectionId, t.objectType, sql`(${t.data} ->> ${sql.raw(`'${field}'`)})`, t.seq).where(objectTypeIn(objectTypes)),
    ),
  ],
);

/** Progress of one sync stream of one connection: what to resume from, and since when to ask next time. */
export const syncStates = pgTable(
  'sync_states',
  {
    connectionId: uuid('connection_id').notNull().references(() => connections.id, { onDelete: 'cascade' }),
    stream: text('stream').notNull(),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    /** idle | running | failed | waiting_for_rate_limit */
    status: text('status').notNull().default('idle'),
    runId: uuid('run_id'),
    mode: text('mode'),
    /** Position after the last saved batch of the current run. */
    resume: text('resume'),
    /**
     * The provider's own position for the next incremental run (Asana's event sync tokens), saved with every
     * batch that moves it, kept across runs.
     */
    cursor: text('cursor'),
    runStartedAt: timestamp('run_started_at', { withTimezone: true, mode: 'date' }),
    /** Start of the last successful run: the next incremental run asks for changes since then (minus an overlap). */
    watermark: timestamp('watermark', { withTimezone: true, mode: 'date' }),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    recordsInRun: integer('records_in_run').notNull().default(0),
    /** Records of the current (or last) run the database refused even after cleaning: skipped, the run went on. */
    skippedInRun: integer('skipped_in_run').notNull().default(0),
    /** The first of them (object type, remote id, SQLSTATE), for GET /sync/status. */
    skipped: jsonb('skipped').$type<SkippedRecord[]>(),
    /** Objects the current (or last) run created, changed and deleted in the store (for sync.completed). */
    changesInRun: jsonb('changes_in_run').$type<ChangeCounts>(),
    /** While `waiting_for_rate_limit`: when the provider's budget allows the run to go on. */
    resumeAt: timestamp('resume_at', { withTimezone: true, mode: 'date' }),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.stream] })],
);

/** The sync state of a stream's deletion check is kept under the stream's name with this suffix. */
export const DELETION_CHECK_SUFFIX = '#deletions';

/**
 * Remote ids a deletion check has listed so far (the run is resumable: they outlive a job). When the
 * listing is complete, objects of the stream not among them are marked deleted, then the rows go.
 */
export const deletionCheckIds = pgTable(
  'deletion_check_ids',
  {
    connectionId: uuid('connection_id').notNull().references(() => connections.id, { onDelete: 'cascade' }),
    runId: uuid('run_id').notNull(),
    remoteId: text('remote_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.remoteId] }), index('deletion_check_ids_connection_idx').on(t.connectionId)],
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

// ---- Field mapping (custom attributes of a project, mapped per linked user and provider)

export const fieldAttributes = pgTable(
  'field_attributes',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    /** Unified object type, e.g. ticketing.ticket or crm.contact. */
    objectTypeOwner: text('object_type_owner').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    /** string | number | boolean | date | json */
    dataType: text('data_type').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('field_attributes_name_uq').on(t.projectId, t.objectTypeOwner, t.name)],
);

export const fieldMappings = pgTable(
  'field_mappings',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    attributeId: uuid('attribute_id').notNull().references(() => fieldAttributes.id, { onDelete: 'cascade' }),
    linkedUserId: uuid('linked_user_id').notNull().references(() => linkedUsers.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    /** The provider's own custom field id (Zendesk field id, HubSpot property name, Pipedrive hash key …). */
    sourceCustomFieldId: text('source_custom_field_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('field_mappings_target_uq').on(t.attributeId, t.linkedUserId, t.provider),
    index('field_mappings_lookup_idx').on(t.projectId, t.linkedUserId, t.provider),
  ],
);

// ---- Magic links, OAuth apps and flows, events

/** Project-level settings of the hosted connect page and OAuth redirects. */
export const connectSettings = pgTable('connect_settings', {
  projectId: uuid('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  /** Providers shown on the connect page; null = every provider with what it needs configured. */
  enabledProviders: jsonb('enabled_providers').$type<string[] | null>(),
  /** Exact URLs (or URL prefixes ending in /) the connect page may send the user back to. */
  allowedRedirectUrls: jsonb('allowed_redirect_urls').$type<string[]>().notNull().default([]),
  updatedAt: updatedAt(),
});

/** OAuth 2.0 client registered by a project for one provider. */
export const oauthApps = pgTable(
  'oauth_apps',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    clientId: text('client_id').notNull(),
    clientSecretEncrypted: text('client_secret_encrypted').notNull(),
    scopes: jsonb('scopes').$type<string[]>(),
    /** Overrides of the manifest's OAuth endpoints (self-hosted products, simulators). */
    authorizeUrl: text('authorize_url'),
    tokenUrl: text('token_url'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('oauth_apps_provider_uq').on(t.projectId, t.provider)],
);

/** A magic link: opens the hosted connect page for one linked user. */
export const inviteLinks = pgTable(
  'invite_links',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    linkedUserId: uuid('linked_user_id').notNull().references(() => linkedUsers.id, { onDelete: 'cascade' }),
    /** SHA-256 of the secret in the URL. */
    tokenHash: text('token_hash').notNull(),
    email: text('email'),
    verticals: jsonb('verticals').$type<string[] | null>(),
    providers: jsonb('providers').$type<string[] | null>(),
    redirectUrl: text('redirect_url'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('invite_links_token_uq').on(t.tokenHash), index('invite_links_project_idx').on(t.projectId)],
);

/** One OAuth authorization in flight: single use, expiring, bound to its link. */
export const oauthFlows = pgTable('oauth_flows', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  inviteLinkId: uuid('invite_link_id').references(() => inviteLinks.id, { onDelete: 'cascade' }),
  provider: text('provider').notNull(),
  codeVerifierEncrypted: text('code_verifier_encrypted'),
  redirectUrl: text('redirect_url'),
  baseUrl: text('base_url'),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  /**
   * A code exchanged whose tokens reach several sites (Atlassian): the tokens and the sites, encrypted,
   * until the linked user chooses one; cleared when the choice is made.
   */
  pendingEncrypted: text('pending_encrypted'),
  createdAt: createdAt(),
});

/** Events for webhook delivery (connection.created, …). Payloads never hold provider credentials. */
export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    /** Increasing in the order events were written, so per connection too: the `sequence` receivers order by. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    /** The connection it is about; no foreign key: connection.deleted outlives its connection. */
    connectionId: uuid('connection_id'),
    type: text('type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('events_project_seq_idx').on(t.projectId, t.seq), index('events_time_idx').on(t.createdAt)],
);

/** Where a project's events are sent (Standard Webhooks), and which types. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description'),
    /** Event types, or ["*"] for all. */
    eventTypes: jsonb('event_types').$type<string[]>().notNull(),
    /** The signing secret (whsec_…), encrypted with the SecretBox. */
    secretEncrypted: text('secret_encrypted').notNull(),
    /** enabled | disabled */
    status: text('status').notNull().default('enabled'),
    disabledReason: text('disabled_reason'),
    /** Since when every attempt failed (null after a success): three days of it disable the endpoint. */
    failingSince: timestamp('failing_since', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('webhook_endpoints_project_idx').on(t.projectId, t.createdAt)],
);

/** One event to one endpoint: the `webhook-id` receivers deduplicate on, kept across its attempts. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id').notNull().references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id').notNull().references(() => events.id, { onDelete: 'cascade' }),
    /** pending | delivered | failed (every retry used) | cancelled (the endpoint was disabled) */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().default(nowMs),
    /** Taken by a worker until then; a worker that died leaves it to be taken again afterwards. */
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    lastStatusCode: integer('last_status_code'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_uq').on(t.endpointId, t.eventId),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
  ],
);

/** Every attempt of a delivery: what the receiver answered, or why it could not be reached. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    deliveryId: uuid('delivery_id').notNull().references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: createdAt(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    /** The first bytes of the receiver's answer. */
    responseSnippet: text('response_snippet'),
    error: text('error'),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attemptedAt)],
);

/**
 * Idempotency-Key of a write: the first answer, replayed to a retry with the same key and request. Scoped
 * to the project and the route (method and path); kept until `expires_at`.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** For key rotation's keyset batches (the primary key is the scope). */
    id: uuid('id').notNull().unique().default(sql`gen_random_uuid()`),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    method: text('method').notNull(),
    path: text('path').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of the request's query and body: the same key with another request is refused. */
    requestHash: text('request_hash').notNull(),
    /** in_progress while the first request runs, then done. */
    state: text('state').notNull(),
    responseStatus: integer('response_status'),
    /** Encrypted with the SecretBox: answers hold connection tokens, API keys and magic links. */
    responseBody: text('response_body'),
    responseContentType: text('response_content_type'),
    /** The process running the request (its instance id) while in_progress. */
    owner: text('owner'),
    /** Refreshed every few seconds by the owner while the request runs: a stale one means its process died. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, mode: 'date' }).notNull().default(nowMs),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.method, t.path, t.key] }), index('idempotency_keys_expiry_idx').on(t.expiresAt)],
);

/**
 * Who did what to the control plane of a project (keys, connections, OAuth apps, magic links, field
 * mappings, syncs, passthrough calls). Never a secret: targets are ids, details a few named fields.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    /** api_key, magic_link (an end customer on the connect page), dashboard_session, cli. */
    actorType: text('actor_type').notNull(),
    actorId: text('actor_id'),
    /** `<object>.<verb>`, e.g. connection.created. */
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    requestId: text('request_id'),
    sourceAddress: text('source_address'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_project_time_idx').on(t.projectId, t.createdAt, t.id), index('audit_log_time_idx').on(t.createdAt)],
);

/**
 * Calls Omniport sent to providers, one row per attempt, for the operator dashboard. Never a secret: the
 * path without its query's secret values, no header, no body. Kept OMNIPORT_PROVIDER_CALL_RETENTION_DAYS.
 */
export const providerCalls = pgTable(
  'provider_calls',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    connectionId: uuid('connection_id').notNull().references(() => connections.id, { onDelete: 'cascade' }),
    method: text('method').notNull(),
    path: text('path').notNull(),
    /** The provider's HTTP status; null when no answer came (then `error` says why). */
    status: integer('status'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    /** What the provider's rate-limit headers said (calls remaining, when the budget resets), and whether it refused the call as rate-limited. */
    rateLimit: jsonb('rate_limit').$type<{ remaining?: string; resetAt?: string; limited?: boolean }>(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('provider_calls_connection_idx').on(t.connectionId, t.startedAt), index('provider_calls_started_idx').on(t.startedAt)],
);

/** Signed-in dashboard sessions: the cookie holds the id, this table its SHA-256. Ends with its API key. */
export const dashboardSessions = pgTable(
  'dashboard_sessions',
  {
    idHash: text('id_hash').primaryKey(),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    apiKeyId: uuid('api_key_id').notNull().references(() => apiKeys.id, { onDelete: 'cascade' }),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('dashboard_sessions_expires_idx').on(t.expiresAt)],
);

/**
 * Requests counted per API key and window, shared by every API process (rate-limiter-flexible's Drizzle
 * store: one upsert per request; rows past their window are deleted by the limiter).
 */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull(),
  expire: timestamp('expire', { withTimezone: true, mode: 'date' }),
});

/**
 * Counters of the providers' budgets (src/providers/budgets.ts), shared by every process on the database:
 * rate-limiter-flexible's RateLimiterPostgres reads and writes this layout (key, points, expire in epoch ms);
 * the schedules of evenly paced budgets are rows keyed `slot:…` whose `expire` is the next free slot in epoch
 * microseconds. The housekeeping job deletes rows an hour past their end.
 * Not tenant data: keys name a provider, a budget and a hash of the account or connection.
 */
export const providerBudgets = pgTable('provider_budgets', {
  key: varchar('key', { length: 255 }).primaryKey(),
  points: integer('points').notNull().default(0),
  expire: bigint('expire', { mode: 'number' }),
});

/**
 * A provider webhook that pushes a connection's changes to Omniport (issue 17): the public address
 * `/webhooks/providers/{provider}/{route_key}`, the provider's id for it, and the secret that signs its
 * requests (encrypted with the SecretBox). Deleted with its connection (the provider's hook first).
 */
export const providerWebhooks = pgTable(
  'provider_webhooks',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    connectionId: uuid('connection_id').notNull().references(() => connections.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    /** The opaque, unguessable part of the public address. */
    routeKey: text('route_key').notNull(),
    /**
     * registered: Omniport created it at the provider; manual: an admin pastes the address and secret; pending: being
     * created, waiting for the provider's handshake (Asana); app: a provider app's webhooks.
     */
    mode: text('mode').notNull(),
    /** The provider's ids of what was created (webhook, trigger …). */
    remoteIds: jsonb('remote_ids').$type<Record<string, string>>().notNull().default({}),
    secretEncrypted: text('secret_encrypted').notNull(),
    /** When the provider drops it (Jira: 30 days): renewed before. */
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    lastReceivedAt: timestamp('last_received_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('provider_webhooks_route_uq').on(t.routeKey), uniqueIndex('provider_webhooks_connection_uq').on(t.connectionId)],
);

/** Delivery ids of provider webhooks already accepted: a second request with one is a replay. */
export const providerWebhookReceipts = pgTable(
  'provider_webhook_receipts',
  {
    webhookId: uuid('webhook_id').notNull().references(() => providerWebhooks.id, { onDelete: 'cascade' }),
    deliveryId: text('delivery_id').notNull(),
    receivedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.webhookId, t.deliveryId] }), index('provider_webhook_receipts_time_idx').on(t.receivedAt)],
);
