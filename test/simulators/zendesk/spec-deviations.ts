/**
 * Where the official Zendesk OpenAPI document (developer.zendesk.com/zendesk/oas.yaml,
 * Support API 2.0.0, vendored in shared/provider-specs/zendesk) disagrees with the real
 * API, and how the simulator handles it.
 *
 * Handled at load time (validator option `relaxNullable: 'scalars'`):
 *  - Nullability. The document almost never says `nullable: true`, but real Zendesk returns
 *    `null` for every unset scalar (ticket `assignee_id`, `group_id`, `organization_id`,
 *    `priority`, `type`, `external_id`, `problem_id`, `recipient`; user `phone`,
 *    `last_login_at`, ...) and clients send `null` to clear them. All scalar properties are
 *    treated as nullable. Object/array-valued properties keep the document's nullability; the
 *    object-valued ones Zendesk does return as null are listed below.
 *
 * Everything else is an allowlist of violations (see KNOWN_DEVIATIONS) — the simulator still
 * behaves like the real API; the matching violations are recorded in
 * `sim.suppressedSpecViolations` instead of `sim.specViolations`.
 */
import type { KnownDeviation } from '../../support/openapi-validator';

/** Query parameters real Zendesk accepts on (almost) every list endpoint but the document declares on few. */
const GENERIC_QUERY_PARAMS = new Set([
  'page[size]',
  'page[after]',
  'page[before]',
  'page',
  'per_page',
  'sort',
  'sort_by',
  'sort_order',
  'include',
]);

const unknownQueryParam = (v: { message: string }) => /^unknown query parameter '(.+)'$/.exec(v.message)?.[1];

export const KNOWN_DEVIATIONS: readonly KnownDeviation[] = [
  {
    reason:
      'Pagination/sort/sideload parameters (page[size], page[after], page[before], page, per_page, sort, sort_by, sort_order, include) are accepted by every list endpoint (see "Pagination" and "Side-loading" in the API introduction) but most operations do not declare them.',
    kind: 'request',
    location: 'query',
    keyword: 'additionalProperties',
    when: (v) => GENERIC_QUERY_PARAMS.has(unknownQueryParam(v) ?? ''),
  },
  {
    reason: 'Incremental exports also accept `per_page` and `exclude_deleted` (documented in the prose, not as parameters).',
    kind: 'request',
    operationId: /^Incremental/,
    location: 'query',
    keyword: 'additionalProperties',
    when: (v) => ['per_page', 'exclude_deleted'].includes(unknownQueryParam(v) ?? ''),
  },
  {
    reason:
      'Cursor-based incremental exports take `start_time` only on the first request; follow-up requests (after_url) carry only `cursor`. The document marks `start_time` as required.',
    kind: 'request',
    operationId: /^Incremental(Ticket|User)ExportCursor$/,
    location: 'query',
    keyword: 'required',
    when: (v) => v.message.includes("'start_time'"),
  },
  {
    reason: 'Upload Files requires the `filename` query parameter (and accepts `token`) but the operation declares no parameters.',
    kind: 'request',
    operationId: 'UploadFiles',
    location: 'query',
    keyword: 'additionalProperties',
    when: (v) => ['filename', 'token'].includes(unknownQueryParam(v) ?? ''),
  },
  {
    reason: 'Users list filters `role` / `role[]` are documented in the prose only.',
    kind: 'request',
    operationId: 'ListUsers',
    location: 'query',
    keyword: 'additionalProperties',
    when: (v) => ['role', 'role[]', 'permission_set', 'external_id'].includes(unknownQueryParam(v) ?? ''),
  },
  {
    reason:
      'Ticket `custom_fields` in requests are `[{id, value}]`; the document types the items as CustomFieldObject (a field *definition* requiring key/title/type).',
    kind: 'request',
    location: 'body',
    pointer: /\/custom_fields\/\*/,
  },
  {
    reason:
      'Custom field values are typed by field: checkbox → boolean, multiselect → array of option values, others → string or null. The document types `custom_fields[].value` as string.',
    kind: 'response',
    pointer: /\/(custom_fields|fields)\/\*\/value$/,
    keyword: ['type'],
  },
  {
    reason: 'Incremental ticket exports return soft-deleted tickets with `status: "deleted"`, which is missing from the status enum.',
    kind: 'response',
    operationId: /^IncrementalTicketExport/,
    pointer: /^\/tickets\/\*\/status$/,
    keyword: 'enum',
    when: (v) => v.data === 'deleted',
  },
  {
    reason:
      'Incremental Ticket Event Export: the document types the `ticket_events` items as TicketMetricEventBaseObject (ticket *metric* events: metric, instance_id, time, type from an enum), copied from the ticket metric events export. The real items are ticket audits — id, ticket_id, timestamp, created_at, updater_id, via (text), event_type "Audit" and `child_events` (Comment events with the comment_events sideload, Create/Change field events) — as the operation\'s own description shows. Nothing inside the items is checked against the wrong schema.',
    kind: 'response',
    operationId: 'IncrementalTicketEvents',
    pointer: /^\/ticket_events\/\*/,
  },
  {
    reason: '`satisfaction_rating` is null for accounts without CSAT (and on new tickets); the document types it as a non-nullable object.',
    kind: 'response',
    pointer: /\/satisfaction_rating$/,
    keyword: 'type',
    when: (v) => v.data === null,
  },
  {
    reason:
      '`organization_fields` values are null when unset and booleans for checkbox fields; the document allows only string | number.',
    kind: 'response',
    pointer: /\/organization_fields\/[^/]+$/,
    keyword: ['type', 'oneOf'],
    when: (v) => v.data === null || typeof v.data === 'boolean',
  },
  {
    reason:
      'List Groups declares a required *path* parameter `user_id` (copied from "List Groups for a user", /users/{user_id}/groups) on /api/v2/groups, which has no such path segment.',
    kind: 'request',
    operationId: 'ListGroups',
    location: 'path',
    keyword: ['required', 'additionalProperties'],
  },
  {
    reason:
      'Audit event `value` is an array for `tags` (and multiselect fields) and null for cleared fields; the document allows only string | integer.',
    kind: 'response',
    pointer: /^\/audit\/events\/\*\/(value|previous_value)$/,
  },
  {
    reason:
      'Failed items of bulk-create jobs are `{index, error, details}` (e.g. {"index":0,"error":"TicketCreateFailed","details":"Description: cannot be blank"}); the document requires id/action/success on FailedResult, so no oneOf branch matches.',
    kind: 'response',
    operationId: /^(ShowJobStatus|ShowManyJobStatuses)$/,
    pointer: /^\/job_status(es\/\*)?\/results/,
  },
  {
    reason:
      'Error responses (400/401/403/404/409/422/429/5xx with {"error", "description"[, "details"]}) are real but undocumented on nearly every operation.',
    kind: 'response',
    keyword: 'status',
    status: (s) => s >= 400,
  },
];
