/**
 * A JQL subset for the Jira simulator: clauses joined by AND / OR (AND binds tighter, parentheses
 * allowed) on `created`, `updated`, `duedate` (dates), `project`, `key`/`id`/`issue`/`issuekey`,
 * `labels`, `assignee`, `reporter`, `status`, `statusCategory`, `issuetype`/`type`, `summary ~`,
 * `parent`; operators = != > >= < <= in / not in, is / is not EMPTY|NULL, ~; values quoted or bare,
 * lists in parentheses, `currentUser()`; `ORDER BY field [ASC|DESC], …`.
 *
 * Date literals follow Jira: `"yyyy/MM/dd HH:mm"`, `"yyyy-MM-dd HH:mm"`, `"yyyy/MM/dd"`, `"yyyy-MM-dd"`
 * in the searching user's time zone, relative `-5m`, `-2h`, `-1d`, `-1w`, or epoch milliseconds.
 * Anything else answers 400 with Jira's error wording.
 */

export class JqlError extends Error {}

type Value = { kind: 'str'; v: string } | { kind: 'fn'; name: string } | { kind: 'empty' };
export interface Clause {
  field: string;
  op: string;
  values: Value[];
}
export type Where = { and: Where[] } | { or: Where[] } | Clause;
export interface Query {
  where: Where | null;
  orderBy: { field: string; dir: 'asc' | 'desc' }[];
}

const FIELD_ALIASES: Record<string, string> = { issue: 'key', issuekey: 'key', id: 'key', type: 'issuetype', statuscategory: 'statusCategory' };
const KNOWN_FIELDS = new Set(['created', 'updated', 'duedate', 'project', 'key', 'labels', 'assignee', 'reporter', 'status', 'statusCategory', 'issuetype', 'summary', 'parent', 'priority', 'resolution']);

function tokenize(s: string): string[] {
  const out: string[] = [];
  const re = /\s*(?:("(?:[^"\\]|\\.)*")|('(?:[^'\\]|\\.)*')|(!=|>=|<=|!~|[=<>~(),])|([^\s"'=<>!~(),]+))/y;
  let i = 0;
  while (i < s.length) {
    re.lastIndex = i;
    const m = re.exec(s);
    if (!m) {
      if (/^\s*$/.test(s.slice(i))) break;
      throw new JqlError(`Error in the JQL Query: The character '${s[i]}' is a reserved JQL character. (line 1, character ${i + 1})`);
    }
    if (m[0].trim() === '') break;
    out.push(m[1] ?? m[2] ?? m[3] ?? m[4]!);
    i = re.lastIndex;
  }
  return out;
}

const unquote = (t: string) => (/^["']/.test(t) ? t.slice(1, -1).replace(/\\(.)/g, '$1') : t);

export function parseJql(jql: string): Query {
  const toks = tokenize(jql);
  let p = 0;
  const peek = () => toks[p];
  const lower = () => peek()?.toLowerCase();
  const expect = (t: string) => {
    if (lower() !== t) throw new JqlError(`Error in the JQL Query: Expecting '${t}' but got '${peek() ?? 'end of query'}'.`);
    p++;
  };

  const value = (): Value => {
    const t = peek();
    if (t === undefined) throw new JqlError('Error in the JQL Query: Expecting either a value, list or function but got end of query.');
    p++;
    if (/^(empty|null)$/i.test(t)) return { kind: 'empty' };
    if (peek() === '(' && /^[a-z]\w*$/i.test(t)) {
      p++;
      expect(')');
      return { kind: 'fn', name: t };
    }
    return { kind: 'str', v: unquote(t) };
  };

  const clause = (): Where => {
    if (peek() === '(') {
      p++;
      const w = or();
      expect(')');
      return w;
    }
    const raw = peek();
    if (raw === undefined) throw new JqlError('Error in the JQL Query: Expecting a field name but got end of query.');
    p++;
    const name = unquote(raw);
    const field = FIELD_ALIASES[name.toLowerCase()] ?? (KNOWN_FIELDS.has(name) ? name : name.toLowerCase());
    if (!KNOWN_FIELDS.has(field)) throw new JqlError(`Field '${name}' does not exist or you do not have permission to view it.`);
    let op = lower();
    if (op === undefined) throw new JqlError(`Error in the JQL Query: Expecting operator but got end of query.`);
    p++;
    if (op === 'not') {
      expect('in');
      op = 'not in';
    } else if (op === 'is') {
      if (lower() === 'not') {
        p++;
        op = 'is not';
      }
    }
    let values: Value[];
    if (op === 'in' || op === 'not in') {
      expect('(');
      values = [value()];
      while (peek() === ',') {
        p++;
        values.push(value());
      }
      expect(')');
    } else if (['=', '!=', '>', '>=', '<', '<=', '~', '!~', 'is', 'is not'].includes(op)) {
      values = [value()];
      if ((op === 'is' || op === 'is not') && values[0]!.kind !== 'empty') throw new JqlError("Error in the JQL Query: Expecting 'EMPTY' after 'IS'.");
    } else throw new JqlError(`Error in the JQL Query: Expecting operator but got '${op}'.`);
    return { field, op, values };
  };

  const and = (): Where => {
    const parts = [clause()];
    while (lower() === 'and') {
      p++;
      parts.push(clause());
    }
    return parts.length === 1 ? parts[0]! : { and: parts };
  };
  const or = (): Where => {
    const parts = [and()];
    while (lower() === 'or') {
      p++;
      parts.push(and());
    }
    return parts.length === 1 ? parts[0]! : { or: parts };
  };

  let where: Where | null = null;
  if (peek() !== undefined && lower() !== 'order') where = or();
  const orderBy: Query['orderBy'] = [];
  if (lower() === 'order') {
    p++;
    expect('by');
    for (;;) {
      const f = peek();
      if (f === undefined) throw new JqlError('Error in the JQL Query: Expecting a field name after ORDER BY.');
      p++;
      const field = FIELD_ALIASES[f.toLowerCase()] ?? f;
      if (!KNOWN_FIELDS.has(field)) throw new JqlError(`Not able to sort using field '${f}'.`);
      let dir: 'asc' | 'desc' = field === 'created' || field === 'updated' ? 'desc' : 'asc';
      if (lower() === 'asc' || lower() === 'desc') dir = lower() as 'asc' | 'desc';
      if (peek() && /^(asc|desc)$/i.test(peek()!)) p++;
      orderBy.push({ field, dir });
      if (peek() !== ',') break;
      p++;
    }
    if (orderBy.length > 7) throw new JqlError('The ORDER BY clause can contain at most 7 fields.');
  }
  if (p < toks.length) throw new JqlError(`Error in the JQL Query: Expecting end of query but got '${peek()}'.`);
  return { where, orderBy };
}

// ---------------------------------------------------------------------------------------------------
// dates

/** One formatter per time zone: building one costs far more than using it (a search evaluates dates per issue). */
const wallClocks = new Map<string, Intl.DateTimeFormat>();
const wallClock = (timeZone: string) => {
  let f = wallClocks.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    wallClocks.set(timeZone, f);
  }
  return f;
};

/** Offset (ms) of a time zone at an instant: local wall time minus UTC. */
function zoneOffset(at: number, timeZone: string): number {
  const parts = Object.fromEntries(
    wallClock(timeZone)
      .formatToParts(new Date(at))
      .map((x) => [x.type, x.value]),
  );
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return wall - Math.floor(at / 1000) * 1000;
}

/** The instant of a wall-clock time in a time zone. */
export function zonedToEpoch(y: number, mo: number, d: number, h: number, mi: number, timeZone: string): number {
  const guess = Date.UTC(y, mo - 1, d, h, mi);
  let at = guess - zoneOffset(guess, timeZone);
  at = guess - zoneOffset(at, timeZone);
  return at;
}

/** A JQL date literal as epoch ms, in the user's time zone. */
export function jqlDateValue(v: string, timeZone: string, now: number): number {
  const rel = /^([-+]?)(\d+)([mhdw])$/i.exec(v.replace(/\s+/g, ''));
  if (rel) {
    const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[rel[3]!.toLowerCase() as 'm' | 'h' | 'd' | 'w'];
    return now + (rel[1] === '-' ? -1 : 1) * Number(rel[2]) * unit;
  }
  if (/^\d{9,}$/.test(v)) return Number(v);
  const m = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})(?:\s+(\d{1,2}):(\d{2}))?$/.exec(v.trim());
  if (!m) {
    throw new JqlError(
      `Date value '${v}' for field is invalid. Valid formats include: 'yyyy/MM/dd HH:mm', 'yyyy-MM-dd HH:mm', 'yyyy/MM/dd', 'yyyy-MM-dd', or a period format e.g. '-5d', '4w 2d'.`,
    );
  }
  return zonedToEpoch(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), timeZone);
}

// ---------------------------------------------------------------------------------------------------
// evaluation

export interface JqlIssueView {
  id: string;
  key: string;
  created: number;
  updated: number;
  duedate: number | null;
  project: { id: string; key: string; name: string };
  labels: string[];
  assignee: string | null;
  reporter: string | null;
  status: string;
  statusCategory: string;
  issuetype: string;
  summary: string;
  parent: string | null;
  priority: string | null;
  resolution: string | null;
}

export interface JqlContext {
  timeZone: string;
  now: number;
  accountId: string;
}

const DATE_FIELDS = new Set(['created', 'updated', 'duedate']);

function matchClause(c: Clause, i: JqlIssueView, ctx: JqlContext): boolean {
  const strValue = (v: Value): string | null => (v.kind === 'str' ? v.v : v.kind === 'fn' ? (v.name.toLowerCase() === 'currentuser' ? ctx.accountId : null) : null);
  if (DATE_FIELDS.has(c.field)) {
    const actual = c.field === 'created' ? i.created : c.field === 'updated' ? i.updated : i.duedate;
    if (c.op === 'is') return actual === null;
    if (c.op === 'is not') return actual !== null;
    if (actual === null) return false;
    const vals = c.values.map((v) => {
      const s = strValue(v);
      if (s === null) throw new JqlError(`The operator '${c.op}' is not supported by the '${c.field}' field.`);
      return jqlDateValue(s, ctx.timeZone, ctx.now);
    });
    const v = vals[0]!;
    switch (c.op) {
      case '=':
        return actual === v;
      case '!=':
        return actual !== v;
      case '>':
        return actual > v;
      case '>=':
        return actual >= v;
      case '<':
        return actual < v;
      case '<=':
        return actual <= v;
      default:
        throw new JqlError(`The operator '${c.op}' is not supported by the '${c.field}' field.`);
    }
  }
  const actual: string[] = (() => {
    switch (c.field) {
      case 'project':
        return [i.project.id, i.project.key.toLowerCase(), i.project.name.toLowerCase()];
      case 'key':
        return [i.id, i.key.toLowerCase()];
      case 'labels':
        return i.labels.map((l) => l.toLowerCase());
      case 'assignee':
        return i.assignee ? [i.assignee.toLowerCase()] : [];
      case 'reporter':
        return i.reporter ? [i.reporter.toLowerCase()] : [];
      case 'status':
        return [i.status.toLowerCase()];
      case 'statusCategory':
        return [i.statusCategory.toLowerCase()];
      case 'issuetype':
        return [i.issuetype.toLowerCase()];
      case 'summary':
        return [i.summary.toLowerCase()];
      case 'parent':
        return i.parent ? [i.parent.toLowerCase()] : [];
      case 'priority':
        return i.priority ? [i.priority.toLowerCase()] : [];
      case 'resolution':
        return i.resolution ? [i.resolution.toLowerCase()] : [];
      default:
        return [];
    }
  })();
  if (c.op === 'is') return actual.length === 0;
  if (c.op === 'is not') return actual.length > 0;
  const wanted = c.values.map((v) => strValue(v)?.toLowerCase() ?? '');
  if (c.op === '~') return actual.some((a) => wanted.every((w) => w.split(/\s+/).every((word) => a.includes(word))));
  if (c.op === '!~') return !actual.some((a) => wanted.every((w) => a.includes(w)));
  const hit = actual.some((a) => wanted.includes(a));
  if (c.op === '=' || c.op === 'in') return hit;
  if (c.op === '!=' || c.op === 'not in') return !hit;
  throw new JqlError(`The operator '${c.op}' is not supported by the '${c.field}' field.`);
}

export function matches(w: Where, i: JqlIssueView, ctx: JqlContext): boolean {
  if ('and' in w) return w.and.every((x) => matches(x, i, ctx));
  if ('or' in w) return w.or.some((x) => matches(x, i, ctx));
  return matchClause(w, i, ctx);
}

/** Sorts issues by the ORDER BY (Jira's default: created descending), ties by id. */
export function sortIssues<T extends JqlIssueView>(issues: T[], orderBy: Query['orderBy']): T[] {
  const keys = orderBy.length ? orderBy : [{ field: 'created', dir: 'desc' as const }];
  const val = (i: JqlIssueView, f: string): number | string => {
    switch (f) {
      case 'created':
        return i.created;
      case 'updated':
        return i.updated;
      case 'duedate':
        return i.duedate ?? Number.MAX_SAFE_INTEGER;
      case 'key': {
        const [p, n] = i.key.split('-');
        return `${p}-${String(n).padStart(12, '0')}`;
      }
      default: {
        const v = (i as unknown as Record<string, unknown>)[f];
        return typeof v === 'string' ? v.toLowerCase() : typeof v === 'number' ? v : '';
      }
    }
  };
  return [...issues].sort((a, b) => {
    for (const k of keys) {
      const x = val(a, k.field);
      const y = val(b, k.field);
      if (x !== y) return (x < y ? -1 : 1) * (k.dir === 'asc' ? 1 : -1);
    }
    return Number(a.id) - Number(b.id);
  });
}
