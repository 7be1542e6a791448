/**
 * ClickUp syncers, in dependency order: user groups (teams), members (users), spaces, folders and lists
 * (collections), tags of each space, tasks (tickets), then comments and attachments of the tasks.
 *
 * Tasks: `GET /v2/team/{id}/task` (closed tasks and subtasks included), pages of 100 oldest first, each
 * from the creation time of the last task read (`date_created_gt`), with `date_updated_gt` for incremental runs. ClickUp lists no deleted tasks: deletions are found by the deletion
 * check (the same listing, ids kept) and by complete full runs (a task missed because a deletion moved a page
 * is asked for alone before being marked). Comments: each listed task's comments (25 a page, older ones by
 * `start`/`start_id`) and its attachments (`GET /v2/task/{id}`); a comment updates its task.
 */
import { existsAt, idsOfFullRun } from '../deletion-check';
import type { AdapterContext, ObjectSyncer, SyncBatch, SyncOptions, UnifiedRecord } from '../types';
import { hierarchy, TASK_PAGE, taskPage, workspace, type ResolvedOptions } from './api';
import { unifyAttachment, unifyComment, unifyFolder, unifyGroup, unifyList, unifyMember, unifySpace, unifyTag, unifyTask } from './mappers';
import type { CuComment, CuGroup, CuTask } from './types';
import { seg } from './util';

function once(key: string, read: (ctx: AdapterContext) => Promise<UnifiedRecord[]>): ObjectSyncer {
  return {
    key,
    objectTypes: [key],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx) {
      yield { records: await read(ctx), resume: null };
    },
  };
}

async function groups(ctx: AdapterContext, o: ResolvedOptions): Promise<CuGroup[]> {
  const ws = await workspace(ctx, o);
  return ((await ctx.http.get<{ groups?: CuGroup[] }>('/v2/group', { query: { team_id: ws.id } })).data?.groups ?? []).filter((g) => g && typeof g.id === 'string');
}

/**
 * The position of a task walk: the mode, `since` (ms), and the creation time `c` of the last task read with
 * the ids read at that time (`at`), in the order the pages run (`d`: `gt` oldest first, `lt` newest first);
 * `p` is the page counted from there (0 unless a whole page shares one creation time).
 */
interface Pos {
  m: 'full' | 'inc';
  s: number | null;
  p: number;
  c?: number | null;
  d?: 'gt' | 'lt' | null;
  at?: string[];
}

const createdOf = (t: CuTask) => {
  const n = Number(t.date_created);
  return t.date_created != null && Number.isFinite(n) ? n : null;
};

/**
 * The workspace's tasks, a page of 100 at a time, from where the last page ended: each page asks for the
 * tasks created after the last one read (`date_created_gt`, one millisecond back, the ids already read at
 * that time left out), not for the next page number — a task deleted or archived meanwhile would move the
 * next ones back a place, and the one moved onto a page already read would be skipped. The direction is
 * read from the page itself (ClickUp's reference does not say which way `reverse` turns the default).
 */
async function* walk(ctx: AdapterContext, o: ResolvedOptions, opts: SyncOptions): AsyncGenerator<{ tasks: CuTask[]; resume: string | null }> {
  const m: Pos['m'] = opts.since ? 'inc' : 'full';
  let saved: Pos | undefined;
  try {
    saved = opts.resume ? (JSON.parse(opts.resume) as Pos) : undefined;
  } catch {
    saved = undefined;
  }
  let pos: Pos = saved && saved.m === m && Number.isInteger(saved.p) ? saved : { m, p: 0, s: opts.since ? opts.since.getTime() : null };
  for (;;) {
    const c = typeof pos.c === 'number' ? pos.c : null;
    const created = c === null ? undefined : pos.d === 'lt' ? { lt: c + 1 } : { gt: c - 1 };
    const page = await taskPage(ctx, o, pos.p, pos.s ?? undefined, created);
    const readAt = new Set(pos.at ?? []);
    const tasks = page.filter((t) => !readAt.has(t.id));
    let next: Pos | null = null;
    if (page.length >= TASK_PAGE) {
      const first = createdOf(page[0]!);
      const last = createdOf(page[page.length - 1]!);
      const d = pos.d ?? (first !== null && last !== null && first !== last ? (first < last ? 'gt' : 'lt') : null);
      if (last === null || d === null || last === c) {
        // No creation time to go on from (or a whole page created in one millisecond): the next page number.
        next = { ...pos, p: pos.p + 1, at: [...readAt, ...page.filter((t) => createdOf(t) === c).map((t) => t.id)] };
      } else {
        next = { m: pos.m, s: pos.s, p: 0, c: last, d, at: page.filter((t) => createdOf(t) === last).map((t) => t.id) };
      }
    }
    yield { tasks, resume: next ? JSON.stringify(next) : null };
    if (!next) return;
    pos = next;
  }
}

function tasksSyncer(o: ResolvedOptions): ObjectSyncer {
  const run = async function* (ctx: AdapterContext, opts: SyncOptions): AsyncIterable<SyncBatch> {
    for await (const step of walk(ctx, o, opts)) yield { records: step.tasks.map((t) => unifyTask(t, ctx.ids)), resume: step.resume };
  };
  return {
    key: 'ticketing.ticket',
    objectTypes: ['ticketing.ticket'],
    incremental: true,
    reportsDeletions: false,
    run,
    deletionCheck: idsOfFullRun(run, ['ticketing.ticket']),
    stillExists: (ctx, object) => existsAt(ctx, `/v2/task/${seg(object.remoteId)}`),
  };
}

/** A task's comments, newest first in pages of 25; older pages from the oldest one seen. */
async function comments(ctx: AdapterContext, taskId: string): Promise<CuComment[]> {
  const out: CuComment[] = [];
  let start: { start: string; start_id: string } | undefined;
  for (;;) {
    const page = (await ctx.http.get<{ comments?: CuComment[] }>(`/v2/task/${seg(taskId)}/comment`, { query: start })).data?.comments ?? [];
    out.push(...page.filter((c) => !out.some((x) => x.id === c.id)));
    const oldest = page[page.length - 1];
    if (page.length < 25 || !oldest?.date || (start && start.start_id === oldest.id)) return out;
    start = { start: String(oldest.date), start_id: oldest.id };
  }
}

function commentsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.comment',
    objectTypes: ['ticketing.comment', 'ticketing.attachment'],
    incremental: true,
    reportsDeletions: false,
    async *run(ctx, opts) {
      for await (const step of walk(ctx, o, opts)) {
        // The HTTP client caps the calls in flight per connection.
        const read = await Promise.all(
          step.tasks.map(async (t) => {
            const [list, full] = await Promise.all([comments(ctx, t.id), ctx.http.get<CuTask>(`/v2/task/${seg(t.id)}`)]);
            return [...list.map((c) => unifyComment(c, ctx.ids, t.id)), ...(full.data?.attachments ?? []).map((a) => unifyAttachment(a, ctx.ids, t.id))];
          }),
        );
        yield {
          records: read.flat(),
          completeChildren: { objectType: 'ticketing.comment', parents: step.tasks.map((t) => ({ objectType: 'ticketing.ticket', remoteId: t.id })) },
          resume: step.resume,
        };
      }
    },
  };
}

export function clickupSyncers(o: ResolvedOptions): ObjectSyncer[] {
  return [
    once('ticketing.team', async (ctx) => (await groups(ctx, o)).map(unifyGroup)),
    once('ticketing.user', async (ctx) => {
      const [ws, gs] = await Promise.all([workspace(ctx, { ...o, cacheMs: 0 }), groups(ctx, o)]);
      const teamsOf = (userId: number) => gs.filter((g) => (g.members ?? []).some((m) => m.id === userId)).map((g) => g.id);
      return (ws.members ?? []).map((m) => unifyMember(m.user, teamsOf, ctx.ids));
    }),
    once('ticketing.collection', async (ctx) => {
      const h = await hierarchy(ctx, { ...o, cacheMs: 0 });
      return [...h.spaces.map(unifySpace), ...h.folders.map((f) => unifyFolder(f, ctx.ids)), ...h.lists.map((l) => unifyList(l, ctx.ids))];
    }),
    once('ticketing.tag', async (ctx) => {
      const { spaces } = await hierarchy(ctx, o);
      const perSpace = await Promise.all(spaces.map(async (s) => ((await ctx.http.get<{ tags?: Array<{ name?: string }> }>(`/v2/space/${seg(s.id)}/tag`)).data?.tags ?? []).map((t) => unifyTag(s.id, t))));
      return perSpace.flat();
    }),
    tasksSyncer(o),
    commentsSyncer(o),
  ];
}
