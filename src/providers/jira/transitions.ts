/**
 * Status changes: a Jira issue's status moves only through its workflow's transitions. To reach a
 * unified status, Omniport lists the transitions available from the current status, keeps those that
 * lead to a status of the right category (and, for ON_HOLD, of an on-hold name), prefers the
 * canonical status name, fills a required resolution, and executes it.
 */
import type { TicketStatus } from '../../core/unified/ticketing';
import type { AdapterContext } from '../types';
import { API } from './api';
import { unifyStatus } from './ticket.mapper';
import type { JiraStatus, JiraTransition } from './types';
import { unsupported } from './util';

/** Preferred target status names per unified status (first match wins; otherwise Jira's order). */
const PREFERRED: Readonly<Record<TicketStatus, RegExp>> = {
  OPEN: /^(to ?do|open|new|backlog|reopened)$/i,
  IN_PROGRESS: /^(in progress|in development|doing)$/i,
  ON_HOLD: /^(on hold|blocked|waiting)/i,
  CLOSED: /^(done|closed|resolved|complete(d)?)$/i,
};

/** Fields Omniport can fill on a transition screen: the resolution, with "Done" (or the first allowed value). */
function fillRequired(t: JiraTransition): { fields: Record<string, unknown> } | { missing: string[] } {
  const fields: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const [key, meta] of Object.entries(t.fields ?? {})) {
    if (!meta?.required || meta.hasDefaultValue) continue;
    if (key === 'resolution') {
      const allowed = meta.allowedValues ?? [];
      const pick = allowed.find((v) => /^(done|fixed)$/i.test(v.name ?? '')) ?? allowed[0];
      if (pick?.id) fields.resolution = { id: pick.id };
      else if (pick?.name) fields.resolution = { name: pick.name };
      else missing.push(key);
    } else missing.push(key);
  }
  return missing.length ? { missing } : { fields };
}

export interface TransitionPlan {
  transition: JiraTransition;
  fields: Record<string, unknown>;
}

/** Chooses the transition to reach `target`, or explains (422 naming `status`) why none can. */
export function planTransition(transitions: JiraTransition[], target: TicketStatus, current: JiraStatus | undefined): TransitionPlan {
  const reaching = transitions.filter((t) => t.isAvailable !== false && unifyStatus(t.to) === target);
  const ordered = [...reaching.filter((t) => PREFERRED[target].test(t.to?.name ?? '')), ...reaching.filter((t) => !PREFERRED[target].test(t.to?.name ?? ''))];
  const blocked: string[] = [];
  for (const t of ordered) {
    const filled = fillRequired(t);
    if ('fields' in filled) return { transition: t, fields: filled.fields };
    blocked.push(`"${t.name ?? t.id}" needs ${filled.missing.join(', ')}`);
  }
  const from = current?.name ? ` from "${current.name}"` : '';
  const available = transitions.filter((t) => t.isAvailable !== false).map((t) => `${t.name ?? t.id} → ${t.to?.name ?? '?'}`);
  const why = blocked.length
    ? `the transitions to a ${target} status need fields Omniport cannot fill (${blocked.join('; ')})`
    : `no transition of this issue's workflow leads${from} to a ${target} status`;
  throw unsupported('status', `${why}; available transitions: ${available.join(', ') || 'none'}`, { available_transitions: available });
}

/**
 * Moves an issue to a status of the unified `target` unless `current` already is one. Returns whether
 * a transition was executed.
 */
export async function transitionTo(ctx: AdapterContext, issueId: string, target: TicketStatus, current: JiraStatus | undefined): Promise<boolean> {
  if (current && unifyStatus(current) === target) return false;
  const res = await ctx.http.get<{ transitions?: JiraTransition[] }>(`${API}/issue/${issueId}/transitions`, { query: { expand: 'transitions.fields' } });
  const plan = planTransition(res.data?.transitions ?? [], target, current);
  await ctx.http.post(`${API}/issue/${issueId}/transitions`, {
    json: { transition: { id: plan.transition.id }, ...(Object.keys(plan.fields).length ? { fields: plan.fields } : {}) },
  });
  return true;
}
