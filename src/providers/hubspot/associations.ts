/**
 * Associations between HubSpot records (v4 association types), read from v3 object reads (`associations`)
 * and v4 batch reads, and written with `associations` on create and the v4 endpoints on update.
 */
import { ProviderError } from '../http-client';
import type { AdapterContext } from '../types';
import type { AssociationMap, HsAssociationWrite, HsObject, HsType, HsV4BatchResult, HsV4Target } from './types';

type Pair = `${HsType}->${HsType}`;

/** HubSpot-defined default (unlabeled) association type ids, from → to. */
const DEFAULT_TYPE: Partial<Record<Pair, number>> = {
  'contacts->companies': 279,
  'deals->companies': 341,
  'deals->contacts': 3,
  'notes->contacts': 202,
  'notes->companies': 190,
  'notes->deals': 214,
  'tasks->contacts': 204,
  'tasks->companies': 192,
  'tasks->deals': 216,
  'calls->contacts': 194,
  'calls->companies': 182,
  'calls->deals': 206,
  'meetings->contacts': 200,
  'meetings->companies': 188,
  'meetings->deals': 212,
  'emails->contacts': 198,
  'emails->companies': 186,
  'emails->deals': 210,
};

/** The "Primary" labelled type: a contact's or deal's primary company. */
const PRIMARY_TYPE: Partial<Record<Pair, number>> = {
  'contacts->companies': 1,
  'deals->companies': 5,
};

/** v3 reads name association types; the primary ones are the names without `_unlabeled`. */
const PRIMARY_V3_NAMES = new Set(['contact_to_company', 'deal_to_company']);

export function defaultTypeId(from: HsType, to: HsType): number {
  const id = DEFAULT_TYPE[`${from}->${to}`];
  if (id === undefined) throw new Error(`no HubSpot association type from ${from} to ${to}`);
  return id;
}

export function primaryTypeId(from: HsType, to: HsType): number | undefined {
  return PRIMARY_TYPE[`${from}->${to}`];
}

/** How a unified reference field maps to associations. */
export interface AssociationIntent {
  /** The unified field, for errors. */
  field: string;
  toType: HsType;
  /** Remote ids of the targets (empty: none). */
  ids: string[];
  /**
   * `primary`: the one primary target (contact/deal → company); other targets stay, unlabeled.
   * `replace`: exactly these targets of that type.
   */
  mode: 'primary' | 'replace';
}

/** `associations` of a create: primary intents get the Primary and the default type. */
export function associationsForCreate(from: HsType, intents: AssociationIntent[]): HsAssociationWrite[] {
  const out: HsAssociationWrite[] = [];
  for (const intent of intents) {
    const primary = intent.mode === 'primary' ? primaryTypeId(from, intent.toType) : undefined;
    for (const toId of intent.ids) {
      out.push({ toType: intent.toType, toId, typeIds: primary !== undefined ? [primary, defaultTypeId(from, intent.toType)] : [defaultTypeId(from, intent.toType)] });
    }
  }
  return out;
}

/** The `associations` body member of a v3 create. */
export function createBody(writes: HsAssociationWrite[]) {
  return writes.map((w) => ({
    to: { id: w.toId },
    types: w.typeIds.map((associationTypeId) => ({ associationCategory: 'HUBSPOT_DEFINED', associationTypeId })),
  }));
}

/** What a create wrote, as an association map (the create answer carries no associations). */
export function mapOfWrites(from: HsType, writes: HsAssociationWrite[]): AssociationMap {
  const map: AssociationMap = {};
  for (const w of writes) {
    const primary = primaryTypeId(from, w.toType);
    (map[w.toType] ??= []).push({ id: w.toId, primary: primary !== undefined && w.typeIds.includes(primary) });
  }
  return map;
}

function add(map: AssociationMap, type: HsType, id: string, primary: boolean) {
  const list = (map[type] ??= []);
  const existing = list.find((x) => x.id === id);
  if (existing) existing.primary ||= primary;
  else list.push({ id, primary });
}

/** Associations of a v3 object read (`?associations=companies,contacts`). */
export function mapOfV3(obj: HsObject, types: HsType[]): AssociationMap {
  const map: AssociationMap = {};
  for (const type of types) {
    for (const r of obj.associations?.[type]?.results ?? []) {
      if (r?.id === undefined || r.id === null) continue;
      add(map, type, String(r.id), PRIMARY_V3_NAMES.has(String(r.type ?? '')));
    }
  }
  return map;
}

function isPrimaryV4(from: HsType, to: HsType, t: HsV4Target): boolean {
  const primary = primaryTypeId(from, to);
  return (t.associationTypes ?? []).some((a) => (primary !== undefined && a.typeId === primary) || a.label === 'Primary');
}

/** Appends v4 targets of one object to its map. */
export function addV4(map: AssociationMap, from: HsType, to: HsType, targets: HsV4Target[]) {
  for (const t of targets) add(map, to, String(t.toObjectId), isPrimaryV4(from, to, t));
}

/**
 * Associations of many objects to one target type (`POST /crm/v4/associations/{from}/{to}/batch/read`,
 * 1,000 ids a call). HubSpot pages each object's targets on its own: objects whose result says there are
 * more are asked again with their `after`, until none has more. Objects without associations are simply
 * absent (HubSpot reports them as errors).
 */
export async function batchReadAssociations(ctx: AdapterContext, from: HsType, to: HsType, ids: string[]): Promise<Map<string, HsV4Target[]>> {
  const out = new Map<string, HsV4Target[]>();
  let pending: { id: string; after?: string }[] = ids.map((id) => ({ id }));
  while (pending.length > 0) {
    const next: { id: string; after: string }[] = [];
    for (let i = 0; i < pending.length; i += 1000) {
      const inputs = pending.slice(i, i + 1000);
      let results: HsV4BatchResult[] = [];
      try {
        const res = await ctx.http.post<{ results?: HsV4BatchResult[] }>(`/crm/v4/associations/${from}/${to}/batch/read`, { json: { inputs }, read: true });
        results = res.data?.results ?? [];
      } catch (err) {
        // Nothing associated at all: some HubSpot versions answer 404 instead of 207.
        if (err instanceof ProviderError && err.providerStatus === 404) continue;
        throw err;
      }
      for (const r of results) {
        const key = String(r.from?.id);
        out.set(key, [...(out.get(key) ?? []), ...(r.to ?? [])]);
        const after = r.paging?.next?.after;
        const asked = inputs.find((x) => x.id === key);
        if (after && after !== asked?.after) next.push({ id: key, after });
      }
    }
    pending = next;
  }
  return out;
}

/** Current targets of one object (`GET /crm/v4/objects/{from}/{id}/associations/{to}`, every page). */
export async function currentTargets(ctx: AdapterContext, from: HsType, id: string, to: HsType): Promise<HsV4Target[]> {
  const out: HsV4Target[] = [];
  let after: string | undefined;
  for (;;) {
    const res = await ctx.http.get<{ results?: HsV4Target[]; paging?: { next?: { after?: string } } }>(`/crm/v4/objects/${from}/${id}/associations/${to}`, {
      query: { limit: 500, after },
    });
    out.push(...(res.data?.results ?? []));
    const next = res.data?.paging?.next?.after;
    if (!next || next === after) return out;
    after = next;
  }
}

const putDefault = (ctx: AdapterContext, from: HsType, id: string, to: HsType, toId: string) =>
  ctx.http.put(`/crm/v4/objects/${from}/${id}/associations/default/${to}/${toId}`);

const putLabelled = (ctx: AdapterContext, from: HsType, id: string, to: HsType, toId: string, typeId: number) =>
  ctx.http.put(`/crm/v4/objects/${from}/${id}/associations/${to}/${toId}`, { json: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: typeId }] });

const remove = (ctx: AdapterContext, from: HsType, id: string, to: HsType, toId: string) => ctx.http.delete(`/crm/v4/objects/${from}/${id}/associations/${to}/${toId}`);

/**
 * Applies the association part of an update. `replace`: adds the missing targets (default type) and removes
 * the others. `primary`: the target becomes the primary one (default + Primary types); a former primary target
 * stays associated, unlabeled (HubSpot keeps one primary company).
 */
export async function applyIntents(ctx: AdapterContext, from: HsType, id: string, intents: AssociationIntent[]): Promise<void> {
  for (const intent of intents) {
    const current = await currentTargets(ctx, from, id, intent.toType);
    const currentIds = new Set(current.map((t) => String(t.toObjectId)));
    if (intent.mode === 'replace' || intent.ids.length === 0) {
      const wanted = new Set(intent.ids);
      for (const toId of intent.ids) if (!currentIds.has(toId)) await putDefault(ctx, from, id, intent.toType, toId);
      for (const toId of currentIds) if (!wanted.has(toId)) await remove(ctx, from, id, intent.toType, toId);
      continue;
    }
    const primary = primaryTypeId(from, intent.toType)!;
    const target = intent.ids[0]!;
    for (const t of current) {
      const toId = String(t.toObjectId);
      if (toId === target || !isPrimaryV4(from, intent.toType, t)) continue;
      // Demote: drop every type, then keep the plain association.
      await remove(ctx, from, id, intent.toType, toId);
      await putDefault(ctx, from, id, intent.toType, toId);
    }
    const already = current.find((t) => String(t.toObjectId) === target);
    if (!already) await putDefault(ctx, from, id, intent.toType, target);
    if (!already || !isPrimaryV4(from, intent.toType, already)) await putLabelled(ctx, from, id, intent.toType, target, primary);
  }
}

/** The primary target, else the first one. */
export function primaryOf(list: { id: string; primary: boolean }[] | undefined): string | null {
  if (!list || list.length === 0) return null;
  return (list.find((x) => x.primary) ?? list[0]!).id;
}

export const idsOf = (list: { id: string }[] | undefined): string[] => (list ?? []).map((x) => x.id);
