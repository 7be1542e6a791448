/**
 * Validation of simulator traffic against Front's official Core API description
 * (`shared/provider-specs/front/core-api.json`: frontapp/front-api-specs, see SOURCE.md). Every request
 * the adapter sends and every response the simulator gives (injected faults excepted) is checked; when
 * the file is absent the checks are skipped and `available` is false.
 *
 * Requests with files are multipart/form-data, which the description mentions in prose only (its request
 * bodies are JSON schemas with `format: binary` items): they are validated as the JSON object their
 * bracketed field names spell, files replaced by their names.
 */
import type { KnownDeviation, SpecViolation } from '../../support/openapi-validator';
import { loadOpenApiCheck, type OpenApiCheck } from '../shared/openapi-check';
import { specPath } from '../../support/provider-specs';

export type { SpecViolation, KnownDeviation };

export const FRONT_SPEC_FILE = 'core-api.json';

const unknownQueryParam = (v: { message: string }) => /^unknown query parameter '(.+)'$/.exec(v.message)?.[1];

/**
 * Where Front's real API differs from its description. Matching violations go to `deviations` instead of
 * `violations`.
 */
export const FRONT_KNOWN_DEVIATIONS: readonly KnownDeviation[] = [
  {
    reason:
      'Error answers ({"_error": {status, title, message, details?}}: 400 invalid input, 401 bad token, 403 missing scope, 404 unknown resource, 409 conflict, 429 rate limit with retry-after, 5xx) can come from every operation; the description documents almost none of them.',
    kind: 'response',
    keyword: 'status',
    status: (s) => s >= 400,
  },
  {
    reason:
      'The search query object `q` is sent as bracketed keys (`q[updated_after]=…`, `q[after]=…`, `q[statuses][]=…`; see "Query object \'q\'" in the docs); the description declares a single string parameter `q`.',
    kind: 'request',
    location: 'query',
    keyword: 'additionalProperties',
    when: (v) => /^q\[/.test(unknownQueryParam(v) ?? ''),
  },
  {
    reason: 'Update conversation: `assignee_id: null` unassigns (as the property\'s own description says), but the schema types it as a non-nullable string.',
    kind: 'request',
    operationId: 'update-conversation',
    pointer: /^\/assignee_id$/,
    keyword: 'type',
    when: (v) => v.data === null,
  },
  {
    reason: 'Inbound messages (and messages an API token sent without author_id) have `author: null`; the description types `author` as a non-nullable teammate.',
    kind: 'response',
    pointer: /(^|\/)author$/,
    keyword: 'type',
    when: (v) => v.data === null,
  },
  {
    reason:
      'Event `source.data` and `target.data` are `oneOf` teammate, inbox(es), tag, comment, message, link …, but InboxResponse has no required property, so every object also matches it: `oneOf` can never pass with a single match (Ajv then also reports each branch that did not match).',
    kind: 'response',
    operationId: /^(list-events|get-event)$/,
    pointer: /\/(source|target)\/data$/,
  },
  {
    reason:
      'Conversation `assignee` and `recipient` are declared `nullable: true` next to a `$ref`, where OpenAPI 3.0 ignores sibling keywords, so the validator sees non-nullable objects; Front sends null for an unassigned conversation and for one without a recipient (discussions, tasks).',
    kind: 'response',
    pointer: /(^|\/)(assignee|recipient)$/,
    keyword: 'type',
    when: (v) => v.data === null,
  },
  {
    reason: 'Message `draft_mode` is `nullable: true` with an enum that lacks null; every sent (non-draft) message has `draft_mode: null`.',
    kind: 'response',
    pointer: /(^|\/)draft_mode$/,
    keyword: 'enum',
    when: (v) => v.data === null,
  },
];

export type SpecCheck = OpenApiCheck;

export async function loadSpecCheck(opts: { enabled?: boolean; file?: string | null; deviations?: readonly KnownDeviation[] } = {}): Promise<SpecCheck> {
  const file = opts.file === null ? undefined : (opts.file ?? specPath('front', FRONT_SPEC_FILE));
  return loadOpenApiCheck(file, opts.deviations ?? FRONT_KNOWN_DEVIATIONS, opts.enabled !== false);
}
