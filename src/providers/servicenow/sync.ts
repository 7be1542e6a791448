/**
 * ServiceNow syncers, in dependency order: groups (teams), companies (accounts), users (users and contacts, with
 * their group memberships), incidents (tickets), then journal entries (comments) and attachments.
 *
 * Incidents walk `sys_updated_on >= since` ordered by `sys_updated_on` then sys_id (api.ts), then the deletions
 * ServiceNow audited since then (`sys_audit_delete`, `tablename=incident`; incident is an audited table by
 * default), reported by sys_id. An instance that denies the connection's user read access to sys_audit_delete
 * leaves deletions to the deletion check (a listing of incident sys_ids) and to full runs.
 *
 * Journal entries are immutable rows of `sys_journal_field` (`name=incident`, element comments or work_notes),
 * walked on `sys_created_on`; attachments are the Attachment API's listing of `table_name=incident`, walked on
 * `sys_updated_on`. Groups, companies, users and memberships are listed in full every run.
 */
import type { AdapterContext, DeletionCheck, ObjectSyncer, SyncBatch, UnifiedRecord } from '../types';
import { isForbidden, listAll, walkTable, type ResolvedOptions } from './api';
import { JOURNAL_ELEMENTS, unifyAttachment, unifyJournalEntry } from './comment.mapper';
import { unifyCaller, unifyCompany, unifyGroup, unifyUser } from './directory.mapper';
import { unifyIncident } from './ticket.mapper';
import type { SnAttachment, SnAuditDelete, SnCompany, SnGroup, SnGroupMember, SnIncident, SnJournalEntry, SnUser } from './types';
import { refId } from './util';

/** A multi-phase run's position: the phase and the walk's own position in it. */
interface PhasePos {
  ph: number;
  r: string | null;
}

function readPhase(resume: string | undefined): PhasePos {
  if (resume) {
    try {
      const p = JSON.parse(resume) as Partial<PhasePos>;
      if (typeof p.ph === 'number' && (typeof p.r === 'string' || p.r === null)) return p as PhasePos;
    } catch {
      // start over
    }
  }
  return { ph: 0, r: null };
}

/** Runs walks one after the other, resumable inside each. */
async function* phases(resume: string | undefined, walks: Array<(resume: string | undefined) => AsyncIterable<{ batch: Omit<SyncBatch, 'resume'>; resume: string | null }>>): AsyncIterable<SyncBatch> {
  const start = readPhase(resume);
  for (let ph = start.ph; ph < walks.length; ph++) {
    for await (const step of walks[ph]!(ph === start.ph ? (start.r ?? undefined) : undefined)) {
      const next: PhasePos | null = step.resume !== null ? { ph, r: step.resume } : ph + 1 < walks.length ? { ph: ph + 1, r: null } : null;
      yield { ...step.batch, resume: next ? JSON.stringify(next) : null };
    }
  }
}

function fullTableSyncer<T extends SnUser | SnGroup | SnCompany>(o: ResolvedOptions, key: string, table: string, unify: (x: T) => UnifiedRecord): ObjectSyncer {
  return {
    key,
    objectTypes: [key],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts) {
      for await (const step of walkTable<T>(ctx, o, { table, timeField: 'sys_created_on', resume: opts.resume })) {
        yield { records: step.items.map(unify), resume: step.resume };
      }
    },
  };
}

function usersSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.user',
    // Callers of incidents are sys_user records: each user is also a contact.
    objectTypes: ['ticketing.user', 'ticketing.contact'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts) {
      const groupsOf = new Map<string, string[]>();
      for (const m of await listAll<SnGroupMember>(ctx, o, 'sys_user_grmember', 'sys_id,user,group,sys_created_on')) {
        const user = refId(m.user);
        const group = refId(m.group);
        if (user && group) groupsOf.set(user, [...(groupsOf.get(user) ?? []), group]);
      }
      for await (const step of walkTable<SnUser>(ctx, o, { table: 'sys_user', timeField: 'sys_created_on', resume: opts.resume })) {
        yield { records: step.items.flatMap((u) => [unifyUser(u, ctx.ids, groupsOf.get(u.sys_id) ?? []), unifyCaller(u, ctx.ids)]), resume: step.resume };
      }
    },
  };
}

/**
 * user_name → sys_id of the authors a run meets: journal entries and attachments name their author by user_name
 * only. Names not seen yet in the run are looked up once, a page's worth in one call (`user_nameIN…`).
 */
function authorLookup(ctx: AdapterContext, o: ResolvedOptions) {
  const known = new Map<string, string>();
  const asked = new Set<string>();
  return async (names: unknown[]): Promise<Map<string, string>> => {
    // A name with a comma cannot be asked for in an IN list; its entries keep no author.
    const missing = [...new Set(names.filter((n): n is string => typeof n === 'string' && n !== '' && !n.includes(',') && !asked.has(n)))];
    if (missing.length) {
      missing.forEach((n) => asked.add(n));
      for (const u of await listAll<SnUser>(ctx, o, 'sys_user', 'sys_id,user_name,sys_created_on', `user_nameIN${missing.join(',')}`)) {
        if (typeof u.user_name === 'string') known.set(u.user_name, u.sys_id);
      }
    }
    return known;
  };
}

function incidentsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.ticket',
    objectTypes: ['ticketing.ticket'],
    incremental: true,
    // Audited deletions are reported; incidents deleted where the audit is not readable are found by the check.
    reportsDeletions: false,
    run(ctx, opts) {
      return phases(opts.resume, [
        async function* live(resume) {
          for await (const step of walkTable<SnIncident>(ctx, o, { table: 'incident', timeField: 'sys_updated_on', since: opts.since, resume })) {
            yield { batch: { records: step.items.map((t) => unifyIncident(t, ctx.ids)) }, resume: step.resume };
          }
        },
        async function* audited(resume) {
          try {
            for await (const step of walkTable<SnAuditDelete>(ctx, o, { table: 'sys_audit_delete', timeField: 'sys_created_on', since: opts.since, resume, filter: 'tablename=incident', fields: 'sys_id,tablename,documentkey,sys_created_on' })) {
              const deleted = step.items.map((d) => d.documentkey).filter((k): k is string => typeof k === 'string' && k !== '');
              yield { batch: { records: [], deleted: deleted.map((remoteId) => ({ objectType: 'ticketing.ticket', remoteId })) }, resume: step.resume };
            }
          } catch (err) {
            // No read access to the deletion audit: deletions come from the deletion check and full runs.
            if (!isForbidden(err)) throw err;
          }
        },
      ]);
    },
    deletionCheck: incidentIds(o),
  };
}

/** Every incident's sys_id, the lightest listing the Table API offers (`sysparm_fields`). */
function incidentIds(o: ResolvedOptions): DeletionCheck {
  return {
    objectTypes: ['ticketing.ticket'],
    async *listIds(ctx, opts) {
      for await (const step of walkTable<SnIncident>(ctx, o, { table: 'incident', timeField: 'sys_created_on', resume: opts.resume, fields: 'sys_id,sys_created_on' })) {
        yield { remoteIds: step.items.map((t) => t.sys_id), resume: step.resume };
      }
    },
  };
}

function commentsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.comment',
    objectTypes: ['ticketing.comment', 'ticketing.attachment'],
    incremental: true,
    reportsDeletions: false,
    async *run(ctx, opts) {
      const authors = authorLookup(ctx, o);
      yield* phases(opts.resume, [
        async function* journal(resume) {
          const filter = `name=incident^elementIN${JOURNAL_ELEMENTS.join(',')}`;
          for await (const step of walkTable<SnJournalEntry>(ctx, o, { table: 'sys_journal_field', timeField: 'sys_created_on', since: opts.since, resume, filter })) {
            const users = await authors(step.items.map((j) => j.sys_created_by));
            yield { batch: { records: step.items.map((j) => unifyJournalEntry(j, ctx.ids, users)) }, resume: step.resume };
          }
        },
        async function* files(resume) {
          for await (const step of walkTable<SnAttachment>(ctx, o, { table: 'sys_attachment', path: '/api/now/attachment', timeField: 'sys_updated_on', since: opts.since, resume, filter: 'table_name=incident' })) {
            const users = await authors(step.items.map((a) => a.sys_created_by));
            yield { batch: { records: step.items.map((a) => unifyAttachment(a, ctx.ids, users)) }, resume: step.resume };
          }
        },
      ]);
    },
  };
}

export function servicenowSyncers(o: ResolvedOptions): ObjectSyncer[] {
  return [
    fullTableSyncer<SnGroup>(o, 'ticketing.team', 'sys_user_group', unifyGroup),
    fullTableSyncer<SnCompany>(o, 'ticketing.account', 'core_company', unifyCompany),
    usersSyncer(o),
    incidentsSyncer(o),
    commentsSyncer(o),
  ];
}
