import { z } from 'zod';
import type { ProviderManifest } from '../manifest';

/**
 * GitLab REST API v4 (GitLab.com, or a self-managed instance through `base_url`, e.g.
 * `https://gitlab.example.com`; the API is under `<base_url>/api/v4`). Personal access tokens are sent
 * as `PRIVATE-TOKEN`; OAuth tokens (hosted connect page) as `Authorization: Bearer`.
 */
export const gitlabManifest: ProviderManifest = {
  name: 'gitlab',
  displayName: 'GitLab',
  vertical: 'ticketing',
  authKind: 'api_token',
  credentials: z.strictObject({
    access_token: z
      .string()
      .min(1)
      .describe('GitLab personal access token (User settings → Access tokens) with the `api` scope (`read_api` allows reads only).'),
  }),
  defaultBaseUrl: 'https://gitlab.com',
  oauth: {
    // GitLab.com only: a self-managed instance registers an OAuth app of its own (authorize_url, token_url), used for that host only.
    hosts: ['gitlab.com'],
    authorizeUrl: '/oauth/authorize',
    tokenUrl: '/oauth/token',
    scopes: ['api'],
    pkce: true,
  },
  // GitLab.com and instances with user/IP rate limits enabled: RateLimit-Reset is a Unix time.
  rateLimitHeaders: { remaining: 'ratelimit-remaining', reset: 'ratelimit-reset', resetKind: 'epoch' },
  // https://docs.gitlab.com/user/gitlab_com/rate_limits/ — GitLab.com allows 2,000 authenticated API requests a
  // minute per user; a self-managed instance has the limits its operator sets (override by configuration).
  budgets: [{ name: 'authenticated API', requests: 2000, perSeconds: 60, scope: 'connection' }],
  capabilities: {
    'ticketing.ticket': ['create', 'batch_create', 'update', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.comment': ['create', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.attachment': ['create', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.user': ['list', 'get', 'sync'],
    'ticketing.team': ['list', 'get', 'sync'],
    'ticketing.collection': ['list', 'get', 'sync'],
    'ticketing.tag': ['list', 'get', 'sync'],
  },
  limitations: [
    'Tickets are issues of the projects the token’s user is a member of (with issues enabled); creating one needs project_id (a collection).',
    'Ticket remote_id is "<project id>#<iid>" (GitLab addresses issues by project and iid); the instance-wide id is in remote_data.',
    'Status is OPEN or CLOSED only (issue state opened/closed); IN_PROGRESS and ON_HOLD are refused with 422.',
    'No priority in GitLab issues (weight is not a priority): priority is refused with 422 and read as null.',
    'No parent ticket, contacts or accounts in the REST API: parent_ticket, contact_id and account_id are refused with 422.',
    'completed_at is read-only (closed_at); set status CLOSED instead.',
    'due_date is a calendar date in GitLab: the date part of the given time is kept, read back at 00:00 UTC.',
    'type is the issue_type: issue, incident, test_case or task.',
    'Several assignees need GitLab Premium; on Free, GitLab keeps only the first and the answer shows what GitLab stored.',
    'An issue cannot move to another project through PATCH (moving changes its id): a different project_id is refused with 422.',
    'Batch create makes one GitLab call per ticket (GitLab has no bulk issue API).',
    'Comments are written as the token’s user: user_id must be that user or absent; contact_id is refused. html_body is sent as the Markdown body only when body is absent (GitLab Markdown accepts inline HTML); comments read back have html_body null.',
    'Attachments are Markdown uploads linked from the comment body; they are read back from those links.',
    'No custom fields on issues in the REST API (Free): field mappings on tickets and comments are refused with 422.',
    'Deleted issues are detected by full sync runs only (GitLab has no deleted-items feed).',
    'Users are members of the synced projects and groups; email_address is the public email (GitLab shows private emails to administrators only).',
  ],
};
