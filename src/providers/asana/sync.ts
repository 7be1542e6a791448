/**
 * Asana syncers, in dependency order: users, teams, projects (collections), tags, tasks (tickets), then
 * stories (comments) and attachments of the tasks.
 *
 * Tasks are read project by project. A full run takes a fresh event sync token of each project
 * (`GET /events?resource=<project>` without one answers 412 with a token), then lists the project's tasks
 * (`GET /tasks?project=`, offset pages). An incremental run reads each project's events from its saved token
 * (the stream's cursor: project gid → token): changed, added, removed or undeleted tasks are read again
 * (`GET /tasks/{gid}`), deleted ones are reported deleted, and a token Asana calls too old (412) makes that
 * project be listed in full from a fresh token. Projects without a token yet (new ones) are listed in full.
 * The comments stream walks the same events with its own tokens and reads the stories and attachments of
 * each changed task. Full runs also infer deletions from what they did not list.
 */
import type { AdapterContext, ObjectSyncer, SyncBatch, SyncOptions, UnifiedRecord } from '../types';
import { ProviderError } from '../http-client';
import { ATTACHMENT_FIELDS, getData, listAll, pages, readEvents, STORY_FIELDS, TASK_FIELDS, workspace, type ResolvedOptions } from './api';
import { isComment, unifyAttachment, unifyProject, unifyStory, unifyTag, unifyTask, unifyTeam, unifyUser } from './mappers';
import type { AsAttachment, AsEvent, AsProject, AsStory, AsTag, AsTask, AsTeam, AsUser, AsWorkspace } from './types';
import { seg } from './util';

/** A list read whole every run: users, teams, projects, tags of the workspace. */
function wholeList<T>(key: string, path: (ws: AsWorkspace) => string | null, query: (ws: AsWorkspace) => Record<string, string>, unify: (x: T) => UnifiedRecord, o: ResolvedOptions): ObjectSyncer {
  return {
    key,
    objectTypes: [key],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts) {
      const ws = await workspace(ctx, o);
      const at = path(ws);
      if (at === null) return;
      for await (const page of pages<T>(ctx, at, o, query(ws), opts.resume)) yield { records: page.items.map(unify), resume: page.next };
    },
  };
}

/** Where a run is: the project it is on, listing its tasks (from offset `o`) or reading its events; the tokens so far. */
interface Pos {
  m: 'full' | 'inc';
  g: string | null;
  l: boolean;
  o: string | null;
  t: Record<string, string>;
}

interface Step {
  /** Tasks of a full listing. */
  listed: AsTask[];
  /** Tasks the events say changed (or whose stories changed), by gid. */
  changed: string[];
  deleted: string[];
  resume: string;
  cursor: string;
}

function parse<T>(text: string | undefined): T | undefined {
  try {
    return text ? (JSON.parse(text) as T) : undefined;
  } catch {
    return undefined;
  }
}

/** The tasks the events touch, the last event of a task deciding whether it is deleted. */
export function digest(events: AsEvent[]): { changed: string[]; deleted: string[] } {
  const changed = new Set<string>();
  const deleted = new Set<string>();
  for (const e of events) {
    const kind = e.resource?.resource_type ?? e.type;
    const gid = e.resource?.gid;
    if (kind === 'task' && gid) {
      if (e.action === 'deleted') {
        deleted.add(gid);
        changed.delete(gid);
      } else {
        changed.add(gid);
        deleted.delete(gid);
      }
    } else if ((kind === 'story' || kind === 'attachment') && e.parent?.resource_type === 'task' && e.parent.gid && !deleted.has(e.parent.gid)) {
      changed.add(e.parent.gid);
    }
  }
  return { changed: [...changed], deleted: [...deleted] };
}

async function* walk(ctx: AdapterContext, o: ResolvedOptions, opts: SyncOptions, fields: string): AsyncGenerator<Step> {
  const ws = await workspace(ctx, o);
  const projects = (await listAll<AsProject>(ctx, '/projects', o, { workspace: ws.gid, opt_fields: 'name' })).map((p) => p.gid);
  const m: Pos['m'] = opts.since ? 'inc' : 'full';
  const resumed = parse<Pos>(opts.resume);
  let pos: Pos = resumed && resumed.m === m ? resumed : { m, g: null, l: false, o: null, t: m === 'inc' ? (parse<Record<string, string>>(opts.cursor) ?? {}) : {} };
  // Tokens of projects that are gone are dropped.
  pos = { ...pos, t: Object.fromEntries(Object.entries(pos.t).filter(([g]) => projects.includes(g))) };
  const at = (p: Pos): Pick<Step, 'resume' | 'cursor'> => ({ resume: JSON.stringify(p), cursor: JSON.stringify(p.t) });
  for (let i = pos.g ? Math.max(0, projects.indexOf(pos.g)) : 0; i < projects.length; i++) {
    const project = projects[i]!;
    if (pos.g !== project) {
      const known = m === 'inc' ? pos.t[project] : undefined;
      pos = known ? { ...pos, g: project, l: false, o: null } : { ...pos, g: project, l: true, o: null, t: { ...pos.t, [project]: (await readEvents(ctx, project, undefined)).sync } };
    }
    while (!pos.l) {
      const read = await readEvents(ctx, project, pos.t[project]);
      if (read.expired) {
        pos = { ...pos, l: true, o: null, t: { ...pos.t, [project]: read.sync } };
        break;
      }
      pos = { ...pos, t: { ...pos.t, [project]: read.sync } };
      yield { listed: [], ...digest(read.events), ...at(pos) };
      if (!read.hasMore) break;
    }
    if (!pos.l) continue;
    for await (const page of pages<AsTask>(ctx, '/tasks', o, { project, opt_fields: fields }, pos.o ?? undefined)) {
      pos = page.next ? { ...pos, o: page.next } : { ...pos, l: false, o: null };
      yield { listed: page.items, changed: [], deleted: [], ...at(pos) };
    }
  }
}

const isGone = (err: unknown) => err instanceof ProviderError && (err.providerStatus === 404 || err.providerStatus === 410);

/** `GET /tasks/{gid}`, or null for a task that is gone. */
async function taskOrGone(ctx: AdapterContext, gid: string): Promise<AsTask | null> {
  try {
    return await getData<AsTask>(ctx, `/tasks/${seg(gid)}`, { opt_fields: TASK_FIELDS });
  } catch (err) {
    if (isGone(err)) return null;
    throw err;
  }
}

function tasksSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.ticket',
    objectTypes: ['ticketing.ticket'],
    incremental: true,
    // Deletions come by id from the events (`deleted`); full runs also infer them.
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      for await (const step of walk(ctx, o, opts, TASK_FIELDS)) {
        // The HTTP client caps the calls in flight per connection.
        const read = await Promise.all(step.changed.map(async (gid) => [gid, await taskOrGone(ctx, gid)] as const));
        const tasks = [...step.listed, ...read.map(([, t]) => t).filter((t): t is AsTask => t !== null)];
        const gone = [...step.deleted, ...read.filter(([, t]) => t === null).map(([gid]) => gid)];
        yield {
          records: tasks.map((t) => unifyTask(t, ctx.ids)),
          deleted: gone.map((remoteId) => ({ objectType: 'ticketing.ticket', remoteId })),
          resume: step.resume,
          cursor: step.cursor,
        };
      }
    },
  };
}

/** A task's comment stories and attachments, or null when the task is gone. */
async function discussion(ctx: AdapterContext, o: ResolvedOptions, gid: string): Promise<UnifiedRecord[] | null> {
  try {
    const [stories, attachments] = await Promise.all([
      listAll<AsStory>(ctx, `/tasks/${seg(gid)}/stories`, o, { opt_fields: STORY_FIELDS }),
      listAll<AsAttachment>(ctx, '/attachments', o, { parent: gid, opt_fields: ATTACHMENT_FIELDS }),
    ]);
    return [...stories.filter(isComment).map((s) => unifyStory(s, ctx.ids, gid)), ...attachments.map((a) => unifyAttachment(a, ctx.ids, gid))];
  } catch (err) {
    if (isGone(err)) return null;
    throw err;
  }
}

function storiesSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.comment',
    objectTypes: ['ticketing.comment', 'ticketing.attachment'],
    incremental: true,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      for await (const step of walk(ctx, o, opts, 'name')) {
        const gids = [...new Set([...step.listed.map((t) => t.gid), ...step.changed])];
        const read = await Promise.all(gids.map(async (gid) => [gid, await discussion(ctx, o, gid)] as const));
        const found = read.filter((r): r is readonly [string, UnifiedRecord[]] => r[1] !== null);
        yield {
          records: found.flatMap(([, records]) => records),
          // Every comment of these tasks is listed: stored ones not listed were deleted.
          completeChildren: { objectType: 'ticketing.comment', parents: found.map(([gid]) => ({ objectType: 'ticketing.ticket', remoteId: gid })) },
          resume: step.resume,
          cursor: step.cursor,
        };
      }
    },
  };
}

export function asanaSyncers(o: ResolvedOptions): ObjectSyncer[] {
  return [
    wholeList<AsUser>('ticketing.user', () => '/users', (ws) => ({ workspace: ws.gid, opt_fields: 'name,email' }), unifyUser, o),
    // Teams exist in organisations only (a personal workspace answers 400).
    wholeList<AsTeam>('ticketing.team', (ws) => (ws.is_organization === false ? null : `/workspaces/${seg(ws.gid)}/teams`), () => ({ opt_fields: 'name,description' }), unifyTeam, o),
    wholeList<AsProject>('ticketing.collection', () => '/projects', (ws) => ({ workspace: ws.gid, opt_fields: 'name,notes,archived,team,created_at,modified_at' }), unifyProject, o),
    wholeList<AsTag>('ticketing.tag', (ws) => `/workspaces/${seg(ws.gid)}/tags`, () => ({ opt_fields: 'name' }), unifyTag, o),
    tasksSyncer(o),
    storiesSyncer(o),
  ];
}
