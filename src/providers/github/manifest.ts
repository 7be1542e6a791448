import { z } from 'zod';
import type { ProviderManifest } from '../manifest';

/**
 * GitHub REST API (issues). api.github.com by default; a GitHub Enterprise Server connection gives
 * `base_url: https://<host>/api/v3`. Connections authenticate with a personal access token (classic
 * with the `repo` scope, or fine-grained with Issues read/write and Metadata read on the repositories);
 * OAuth through the hosted connect page comes later.
 */
export const githubManifest: ProviderManifest = {
  name: 'github',
  displayName: 'GitHub',
  vertical: 'ticketing',
  authKind: 'api_token',
  credentials: z.strictObject({
    access_token: z
      .string()
      .min(1)
      .describe('GitHub personal access token: classic with the repo scope, or fine-grained with Issues (read and write) and Metadata (read).'),
  }),
  defaultBaseUrl: 'https://api.github.com',
  rateLimitHeaders: { remaining: 'x-ratelimit-remaining', reset: 'x-ratelimit-reset', resetKind: 'epoch' },
  // "If you receive a secondary rate limit error without retry-after … wait at least one minute" (GitHub's REST docs).
  rateLimitMinWaitMs: 60_000,
  // https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api — 5,000 requests an hour per
  // user (primary); secondary: at most 80 content-creating requests a minute (and 500 an hour, left to the
  // secondary-limit answers: pacing it evenly would space writes 7 s apart).
  budgets: [
    { name: 'primary', requests: 5000, perSeconds: 3600, scope: 'connection' },
    { name: 'content creation', requests: 80, perSeconds: 60, methods: ['POST', 'PATCH', 'PUT', 'DELETE'], scope: 'connection' },
  ],
  capabilities: {
    'ticketing.ticket': ['create', 'batch_create', 'update', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.comment': ['create', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.user': ['list', 'get', 'sync'],
    'ticketing.tag': ['list', 'get', 'sync'],
    'ticketing.collection': ['list', 'get', 'sync'],
  },
  limitations: [
    'Tickets are issues of a repository: creating one needs project_id (a collection, i.e. a repository); an issue cannot be moved to another repository.',
    'Pull requests are not tickets: they (and their comments) are left out of sync.',
    'Status is open or closed: OPEN and CLOSED (closed as completed) are written; IN_PROGRESS and ON_HOLD are refused with 422. Closed as not planned reads as CLOSED; the reason stays in remote_data.state_reason.',
    'No priority, type, due date, parent ticket, contact or account on GitHub issues: these fields are refused with 422.',
    'completed_at is read-only (the issue\'s closed_at).',
    'No attachments through the API: a comment with attachments is refused with 422 (attachments).',
    'Comments are public Markdown, written as the token\'s user: is_private true, another author (user_id) or a contact are refused with 422.',
    'No custom fields through REST (Projects v2 fields are GraphQL-only): field mapping is not available.',
    'Labels and assignees need push access to the repository (GitHub drops them silently otherwise): without it they are refused with 422.',
    'At most 10 assignees per issue.',
    'Users are the assignable users of the repositories (plus the token\'s user); authors of comments who cannot be assigned anywhere (outside contributors) are referenced but not listed.',
    'GitHub does not report deleted issues or comments: only a full sync detects them.',
    'No teams, contacts or accounts.',
  ],
};
