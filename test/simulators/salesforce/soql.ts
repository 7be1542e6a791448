/**
 * The subset of SOQL the Salesforce simulator answers (SOQL and SOSL Reference, "SOQL SELECT Syntax"):
 * `SELECT field, … FROM Object [WHERE condition] [ORDER BY field [ASC|DESC] [NULLS FIRST|LAST], …] [LIMIT n]`,
 * conditions with AND, OR, NOT, parentheses, `= != < > <= >=`, `[NOT] IN (…)`, and literals: quoted
 * strings (backslash escapes), numbers, true/false/null, dates and dateTimes (unquoted, with Z or an offset).
 * A query it cannot read is a MALFORMED_QUERY, as Salesforce answers.
 */

export class SoqlError extends Error {
  constructor(
    readonly errorCode: 'MALFORMED_QUERY' | 'INVALID_FIELD' | 'INVALID_TYPE',
    message: string,
  ) {
    super(message);
  }
}

type Literal = string | number | boolean | null | { date: number };
export type Condition =
  | { op: 'and' | 'or'; parts: Condition[] }
  | { op: 'not'; part: Condition }
  | { op: 'cmp'; field: string; cmp: string; value: Literal }
  | { op: 'in'; field: string; not: boolean; values: Literal[] };

export interface SoqlQuery {
  fields: string[];
  from: string;
  where?: Condition;
  orderBy: { field: string; desc: boolean; nullsLast: boolean }[];
  limit?: number;
}

const TOKEN = /\s*(?:('(?:[^'\\]|\\.)*')|(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?(?:Z|[+-]\d{2}:?\d{2}))|(\d{4}-\d{2}-\d{2})(?![\dT])|(-?\d+(?:\.\d+)?)(?![\w])|([A-Za-z_][\w.]*)|(!=|<=|>=|=|<|>|\(|\)|,))/y;

interface Tok {
  kind: 'str' | 'datetime' | 'date' | 'num' | 'word' | 'sym';
  text: string;
}

function tokenize(q: string): Tok[] {
  const out: Tok[] = [];
  TOKEN.lastIndex = 0;
  let i = 0;
  while (i < q.length) {
    if (/^\s*$/.test(q.slice(i))) break;
    TOKEN.lastIndex = i;
    const m = TOKEN.exec(q);
    if (!m) throw new SoqlError('MALFORMED_QUERY', `unexpected token: '${q.slice(i).trim().split(/\s/)[0]}'`);
    i = TOKEN.lastIndex;
    const kinds = ['str', 'datetime', 'date', 'num', 'word', 'sym'] as const;
    const k = kinds.findIndex((_, j) => m[j + 1] !== undefined);
    out.push({ kind: kinds[k]!, text: m[k + 1]! });
  }
  return out;
}

export function parseSoql(q: string): SoqlQuery {
  const toks = tokenize(q);
  let i = 0;
  const peek = () => toks[i];
  const isWord = (w: string, t = peek()) => t?.kind === 'word' && t.text.toUpperCase() === w;
  const expect = (w: string) => {
    if (!isWord(w) && peek()?.text !== w) throw new SoqlError('MALFORMED_QUERY', `expecting '${w}', found '${peek()?.text ?? 'end of query'}'`);
    i++;
  };
  const field = () => {
    const t = toks[i++];
    if (t?.kind !== 'word') throw new SoqlError('MALFORMED_QUERY', `expecting a field name, found '${t?.text ?? 'end of query'}'`);
    return t.text;
  };
  const literal = (): Literal => {
    const t = toks[i++];
    if (!t) throw new SoqlError('MALFORMED_QUERY', 'expecting a value');
    switch (t.kind) {
      case 'str':
        return t.text.slice(1, -1).replace(/\\(.)/g, '$1');
      case 'num':
        return Number(t.text);
      case 'datetime':
        return { date: Date.parse(t.text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')) };
      case 'date':
        return { date: Date.parse(`${t.text}T00:00:00Z`) };
      case 'word': {
        const w = t.text.toLowerCase();
        if (w === 'true' || w === 'false') return w === 'true';
        if (w === 'null') return null;
      }
    }
    throw new SoqlError('MALFORMED_QUERY', `unexpected token: '${t.text}'`);
  };

  expect('SELECT');
  const fields = [field()];
  while (peek()?.text === ',') {
    i++;
    fields.push(field());
  }
  expect('FROM');
  const from = field();

  const factor = (): Condition => {
    if (isWord('NOT')) {
      i++;
      return { op: 'not', part: factor() };
    }
    if (peek()?.text === '(') {
      i++;
      const c = expr();
      expect(')');
      return c;
    }
    const f = field();
    const not = isWord('NOT');
    if (not) i++;
    if (isWord('IN')) {
      i++;
      expect('(');
      const values = [literal()];
      while (peek()?.text === ',') {
        i++;
        values.push(literal());
      }
      expect(')');
      return { op: 'in', field: f, not, values };
    }
    if (not) throw new SoqlError('MALFORMED_QUERY', "expecting 'IN' after 'NOT'");
    const cmp = toks[i++];
    if (cmp?.kind !== 'sym' || !['=', '!=', '<', '>', '<=', '>='].includes(cmp.text)) throw new SoqlError('MALFORMED_QUERY', `unexpected token: '${cmp?.text ?? 'end of query'}'`);
    return { op: 'cmp', field: f, cmp: cmp.text, value: literal() };
  };
  const term = (): Condition => {
    const parts = [factor()];
    while (isWord('AND')) {
      i++;
      parts.push(factor());
    }
    return parts.length === 1 ? parts[0]! : { op: 'and', parts };
  };
  const expr = (): Condition => {
    const parts = [term()];
    while (isWord('OR')) {
      i++;
      parts.push(term());
    }
    return parts.length === 1 ? parts[0]! : { op: 'or', parts };
  };

  const out: SoqlQuery = { fields, from, orderBy: [] };
  if (isWord('WHERE')) {
    i++;
    out.where = expr();
  }
  if (isWord('ORDER')) {
    i++;
    expect('BY');
    for (;;) {
      const f = field();
      let desc = false;
      if (isWord('ASC') || isWord('DESC')) desc = toks[i++]!.text.toUpperCase() === 'DESC';
      let nullsLast = desc;
      if (isWord('NULLS')) {
        i++;
        nullsLast = toks[i++]?.text.toUpperCase() === 'LAST';
      }
      out.orderBy.push({ field: f, desc, nullsLast });
      if (peek()?.text !== ',') break;
      i++;
    }
  }
  if (isWord('LIMIT')) {
    i++;
    const n = literal();
    if (typeof n !== 'number') throw new SoqlError('MALFORMED_QUERY', 'LIMIT takes a number');
    out.limit = n;
  }
  if (i < toks.length) throw new SoqlError('MALFORMED_QUERY', `unexpected token: '${toks[i]!.text}'`);
  return out;
}

/** A field value comparable with a literal: dateTimes and dates as epoch ms. */
function comparable(v: unknown, like: Literal): unknown {
  if (like && typeof like === 'object' && typeof v === 'string') return Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return v;
}
const lit = (l: Literal) => (l && typeof l === 'object' ? l.date : l);

export function matches(record: Record<string, unknown>, c: Condition | undefined): boolean {
  if (!c) return true;
  switch (c.op) {
    case 'and':
      return c.parts.every((p) => matches(record, p));
    case 'or':
      return c.parts.some((p) => matches(record, p));
    case 'not':
      return !matches(record, c.part);
    case 'in': {
      const v = record[c.field] ?? null;
      const found = c.values.some((x) => comparable(v, x) === lit(x));
      return c.not ? !found : found;
    }
    case 'cmp': {
      const raw = record[c.field] ?? null;
      const v = comparable(raw, c.value);
      const x = lit(c.value);
      if (c.cmp === '=') return v === x;
      if (c.cmp === '!=') return v !== x;
      // Ordering comparisons never match null.
      if (v === null || x === null) return false;
      const a = v as string | number;
      const b = x as string | number;
      return c.cmp === '<' ? a < b : c.cmp === '>' ? a > b : c.cmp === '<=' ? a <= b : a >= b;
    }
  }
}

/** Every field a query names (to check them against the object's fields). */
export function fieldsOf(q: SoqlQuery): string[] {
  const out = new Set([...q.fields, ...q.orderBy.map((o) => o.field)]);
  const walk = (c: Condition | undefined) => {
    if (!c) return;
    if (c.op === 'cmp' || c.op === 'in') out.add(c.field);
    else if (c.op === 'not') walk(c.part);
    else c.parts.forEach(walk);
  };
  walk(q.where);
  return [...out];
}

export function sortRecords<T extends Record<string, unknown>>(records: T[], orderBy: SoqlQuery['orderBy']): T[] {
  return [...records].sort((a, b) => {
    for (const o of orderBy) {
      const x = a[o.field] ?? null;
      const y = b[o.field] ?? null;
      if (x === y) continue;
      if (x === null || y === null) return (x === null) !== o.nullsLast ? -1 : 1;
      const c = (x as string | number) < (y as string | number) ? -1 : 1;
      return o.desc ? -c : c;
    }
    return 0;
  });
}
