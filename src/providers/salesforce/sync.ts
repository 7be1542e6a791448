/**
 * Salesforce syncers, in dependency order: users, stages, companies (Accounts), contacts, deals
 * (Opportunities with their contact roles), tasks, notes (classic Notes and enhanced ContentNotes), engagements (Events, call and email Tasks). One
 * batch per query batch, each with the position to resume after it.
 *
 * Every stream reads SOQL ordered by (SystemModstamp, Id). Its position is the last record's pair, a
 * compound cursor: a resumed run asks `SystemModstamp > s OR (SystemModstamp = s AND Id > id)`, so records
 * that share a timestamp are neither skipped nor read twice (SystemModstamp keeps whole seconds and ties
 * often). Full runs use `query`; the core marks what a complete full run did not see as deleted.
 * Incremental runs use `queryAll` from the core's `since`: it also answers records deleted since then
 * (IsDeleted true, while they are in the recycle bin), reported deleted.
 */
import type { AdapterContext, ObjectSyncer, SyncBatch, SyncOptions, UnifiedRecord } from '../types';
import { chunks, inList, isOf, soql, soqlAll, soqlDateTime, soqlString, toDate, type Describes, type ResolvedOptions, type SfRecord } from './api';
import { NOTE_DOCUMENTS, unifyContentNotes } from './content-notes';
import { FIELDS, unifyAccount, unifyContact, unifyEngagement, unifyNote, unifyOpportunity, unifyStage, unifyTask, unifyUser } from './mappers';

type SObject = keyof typeof FIELDS;

interface Phase {
  sobject: SObject;
  /** Extra condition (SOQL) of this phase. */
  where?: string;
}

interface StreamSpec {
  key: string;
  objectType: string;
  phases: Phase[];
  /** Incremental through queryAll (the sObject has IsDeleted); otherwise every run is full. */
  incremental: boolean;
  unify(records: SfRecord[], ctx: AdapterContext): Promise<UnifiedRecord[]> | UnifiedRecord[];
  /** After the phases of an incremental run: more records changed since `since` (deals whose contact roles changed). */
  alsoChanged?(ctx: AdapterContext, since: Date): Promise<UnifiedRecord[]>;
}

/** A position: the phase, and the (SystemModstamp, Id) of the last record read in it. */
interface Position {
  phase: number;
  at: { s: string; id: string } | null;
}
const encode = (p: Position) => JSON.stringify(p);
function decode(s: string | undefined): Position {
  if (!s) return { phase: 0, at: null };
  try {
    const p = JSON.parse(s) as Position;
    if (Number.isSafeInteger(p.phase) && (p.at === null || (typeof p.at?.s === 'string' && typeof p.at.id === 'string'))) return p;
  } catch {
    // an old or foreign position: start over
  }
  return { phase: 0, at: null };
}

/** The SOQL of a phase: its fields, conditions, and the (SystemModstamp, Id) order. */
export function phaseQuery(fields: string[], phase: Phase, since: Date | undefined, at: Position['at']): string {
  const where: string[] = [];
  if (phase.where) where.push(`(${phase.where})`);
  if (since) where.push(`SystemModstamp >= ${soqlDateTime(since)}`);
  if (at) {
    const stamp = soqlDateTime(toDate(at.s) ?? new Date(0));
    where.push(`(SystemModstamp > ${stamp} OR (SystemModstamp = ${stamp} AND Id > ${soqlString(at.id)}))`);
  }
  return `SELECT ${fields.join(', ')} FROM ${phase.sobject}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY SystemModstamp ASC, Id ASC`;
}

function streamSyncer(o: ResolvedOptions, describes: Describes, spec: StreamSpec): ObjectSyncer {
  async function* run(ctx: AdapterContext, opts: SyncOptions): AsyncIterable<SyncBatch> {
    const since = spec.incremental ? opts.since : undefined;
    const start = decode(opts.resume);
    for (let phase = start.phase; phase < spec.phases.length; phase++) {
      const p = spec.phases[phase]!;
      const fields = await describes.select(ctx, p.sobject, [...FIELDS[p.sobject], 'SystemModstamp']);
      const q = phaseQuery(fields, p, since, phase === start.phase ? start.at : null);
      let last: SfRecord | undefined;
      for await (const records of soql(ctx, q, { all: Boolean(since), batchSize: o.batchSize })) {
        last = records.at(-1) ?? last;
        const at = last ? { s: String(last.SystemModstamp), id: last.Id } : phase === start.phase ? start.at : null;
        yield { records: await spec.unify(records, ctx), resume: encode({ phase, at }) };
      }
    }
    if (since && spec.alsoChanged) yield { records: await spec.alsoChanged(ctx, since), resume: null };
    else yield { records: [], resume: null };
  }
  return {
    key: spec.key,
    objectTypes: [spec.objectType],
    incremental: spec.incremental,
    // queryAll sees deletions only while the records are in the recycle bin (15 days): complete full runs
    // still mark what they no longer see.
    reportsDeletions: false,
    run,
  };
}

/** The contacts of each opportunity (OpportunityContactRole), by opportunity id: one query per 200 deals. */
async function contactRoles(ctx: AdapterContext, o: ResolvedOptions, opportunityIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const part of chunks(opportunityIds, 200)) {
    const q = `SELECT Id, OpportunityId, ContactId FROM OpportunityContactRole WHERE OpportunityId IN (${inList(part)}) ORDER BY CreatedDate ASC, Id ASC`;
    for (const r of await soqlAll(ctx, q, { batchSize: o.batchSize })) {
      const opp = String(r.OpportunityId);
      if (typeof r.ContactId === 'string') out.set(opp, [...(out.get(opp) ?? []), r.ContactId]);
    }
  }
  return out;
}

/** Opportunities unified with their contacts. */
export async function unifyOpportunities(ctx: AdapterContext, o: ResolvedOptions, records: SfRecord[]): Promise<UnifiedRecord[]> {
  const live = records.filter((r) => r.IsDeleted !== true).map((r) => r.Id);
  const roles = live.length ? await contactRoles(ctx, o, live) : new Map<string, string[]>();
  return records.map((r) => unifyOpportunity(r, roles.get(r.Id) ?? [], ctx.ids));
}

export function salesforceSyncers(o: ResolvedOptions, describes: Describes): ObjectSyncer[] {
  const full = (key: string, sobject: SObject, unify: (r: SfRecord) => UnifiedRecord) =>
    streamSyncer(o, describes, { key, objectType: key, phases: [{ sobject }], incremental: false, unify: (rs) => rs.map(unify) });
  const stream = (key: string, phases: Phase[], unify: StreamSpec['unify'], alsoChanged?: StreamSpec['alsoChanged']) =>
    streamSyncer(o, describes, { key, objectType: key, phases, incremental: true, unify, alsoChanged });
  return [
    full('crm.user', 'User', unifyUser),
    full('crm.stage', 'OpportunityStage', unifyStage),
    stream('crm.company', [{ sobject: 'Account' }], (rs, ctx) => rs.map((r) => unifyAccount(r, ctx.ids))),
    stream('crm.contact', [{ sobject: 'Contact' }], (rs, ctx) => rs.map((r) => unifyContact(r, ctx.ids))),
    stream(
      'crm.deal',
      [{ sobject: 'Opportunity' }],
      (rs, ctx) => unifyOpportunities(ctx, o, rs),
      // Adding or removing a contact role does not touch the opportunity's SystemModstamp: the deals whose
      // roles changed (or were deleted) since then are read again.
      async (ctx, since) => {
        const roles = await soqlAll(ctx, `SELECT Id, OpportunityId FROM OpportunityContactRole WHERE SystemModstamp >= ${soqlDateTime(since)}`, { all: true, batchSize: o.batchSize });
        const ids = [...new Set(roles.map((r) => String(r.OpportunityId)))];
        const out: UnifiedRecord[] = [];
        for (const part of chunks(ids, 200)) {
          const fields = await describes.select(ctx, 'Opportunity', [...FIELDS.Opportunity]);
          out.push(...(await unifyOpportunities(ctx, o, await soqlAll(ctx, `SELECT ${fields.join(', ')} FROM Opportunity WHERE Id IN (${inList(part)})`, { batchSize: o.batchSize }))));
        }
        return out;
      },
    ),
    stream('crm.task', [{ sobject: 'Task', where: "TaskSubtype NOT IN ('Call', 'Email')" }], (rs, ctx) => rs.map((r) => unifyTask(r, ctx.ids))),
    // Classic Notes, then enhanced notes (ContentNote: ContentDocuments of type SNOTE): an org can have both.
    stream('crm.note', [{ sobject: 'Note' }, { sobject: 'ContentDocument', where: NOTE_DOCUMENTS }], async (rs, ctx) => [
      ...rs.filter((r) => !isOf(r.Id, 'ContentDocument')).map((r) => unifyNote(r, ctx.ids)),
      ...(await unifyContentNotes(ctx, o, rs.filter((r) => isOf(r.Id, 'ContentDocument')))),
    ]),
    stream('crm.engagement', [{ sobject: 'Event' }, { sobject: 'Task', where: "TaskSubtype IN ('Call', 'Email')" }], (rs, ctx) => rs.map((r) => unifyEngagement(r, ctx.ids))),
  ];
}
