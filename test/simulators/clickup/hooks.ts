/**
 * Webhooks of the ClickUp simulator: `POST /v2/team/{team_id}/webhook` (answers `{id, webhook}` with the
 * `secret` ClickUp generates), `GET /v2/team/{team_id}/webhook`, `DELETE /v2/webhook/{webhook_id}`, and for every
 * task change an event worded as ClickUp words it (`{event, history_items, task_id, webhook_id}`; `taskDeleted`
 * without history items), signed with `X-Signature` = hex HMAC-SHA256 of the body.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { WebhookSender } from '../shared/webhook-delivery';

type Obj = Record<string, unknown>;

export const CLICKUP_WEBHOOK_EVENTS = [
  'taskCreated', 'taskUpdated', 'taskDeleted', 'taskPriorityUpdated', 'taskStatusUpdated', 'taskAssigneeUpdated', 'taskDueDateUpdated',
  'taskTagUpdated', 'taskMoved', 'taskCommentPosted', 'taskCommentUpdated', 'taskTimeEstimateUpdated', 'taskTimeTrackedUpdated',
  'listCreated', 'listUpdated', 'listDeleted', 'folderCreated', 'folderUpdated', 'folderDeleted', 'spaceCreated', 'spaceUpdated', 'spaceDeleted',
  'goalCreated', 'goalUpdated', 'goalDeleted', 'keyResultCreated', 'keyResultUpdated', 'keyResultDeleted',
] as const;

export interface SimClickUpWebhook {
  id: string;
  userid: number;
  team_id: number;
  endpoint: string;
  events: string[];
  secret: string;
  /** Location filters (one per level); null: the whole workspace. */
  space_id: string | null;
  folder_id: string | null;
  list_id: string | null;
  task_id: string | null;
}

/** Where a task lives, for the webhooks' location filters. */
export interface TaskPlace {
  task: string;
  list: string;
  folder: string | null;
  space: string;
}

/** ClickUp's signature header for a body. */
export const clickupHookHeaders = (secret: string, body: string): Record<string, string> => ({ 'x-signature': createHmac('sha256', secret).update(body).digest('hex') });

export class ClickUpHooks {
  readonly webhooks = new Map<string, SimClickUpWebhook>();
  readonly sender = new WebhookSender();
  private seq = 2_800_000_000_000_000_000n;

  constructor(
    private readonly now: () => number,
    private readonly userOf: (id: number) => Obj,
  ) {}

  /** Validates and creates a webhook as ClickUp does; throws `[status, err, ECODE]` for a refused body. */
  create(teamId: string, userid: number, b: Obj): SimClickUpWebhook {
    if (typeof b.endpoint !== 'string' || !/^https?:\/\/\S+$/.test(b.endpoint)) throw [400, 'Webhook endpoint invalid', 'WEBHOOK_007'];
    const events = b.events === undefined ? ['*'] : b.events;
    if (!Array.isArray(events) || !events.length || !events.every((e) => e === '*' || (CLICKUP_WEBHOOK_EVENTS as readonly string[]).includes(e as string))) throw [400, 'Events invalid', 'WEBHOOK_003'];
    const loc = (v: unknown) => (v === undefined || v === null ? null : String(v));
    const hook: SimClickUpWebhook = {
      id: randomUUID(),
      userid,
      team_id: Number(teamId),
      endpoint: b.endpoint,
      events: events.map(String),
      secret: randomBytes(32).toString('hex').toUpperCase().slice(0, 64),
      space_id: loc(b.space_id),
      folder_id: loc(b.folder_id),
      list_id: loc(b.list_id),
      task_id: loc(b.task_id),
    };
    this.webhooks.set(hook.id, hook);
    return hook;
  }

  /** As the API renders a webhook (the secret included, as ClickUp's Get Webhooks does). */
  render(w: SimClickUpWebhook): Obj {
    return { id: w.id, userid: w.userid, team_id: w.team_id, endpoint: w.endpoint, client_id: 'OMNIPORTSIMULATORCLIENTID0000000', events: w.events, task_id: w.task_id, list_id: w.list_id, folder_id: w.folder_id, space_id: w.space_id, health: { status: 'active', fail_count: 0 }, secret: w.secret };
  }

  /** One task event (`field`: the history item's field; none for `taskDeleted`). */
  task(event: string, place: TaskPlace, user: number, item?: { field: string; before?: unknown; after?: unknown; extra?: Obj }): void {
    const hooks = [...this.webhooks.values()].filter(
      (w) =>
        (w.events.includes('*') || w.events.includes(event)) &&
        (w.task_id === null || w.task_id === place.task) &&
        (w.list_id === null || w.list_id === place.list) &&
        (w.folder_id === null || w.folder_id === place.folder) &&
        (w.space_id === null || w.space_id === place.space),
    );
    if (!hooks.length) return;
    const history = item
      ? [{ id: String(++this.seq), type: 1, date: String(this.now()), field: item.field, parent_id: place.list, data: {}, source: null, user: this.userOf(user), before: item.before ?? null, after: item.after ?? null, ...(item.extra ?? {}) }]
      : undefined;
    for (const w of hooks) {
      const body = JSON.stringify({ event, ...(history ? { history_items: history } : {}), task_id: place.task, webhook_id: w.id });
      this.sender.send([{ url: w.endpoint, headers: (b) => clickupHookHeaders(w.secret, b) }], body);
    }
  }
}
