/**
 * Checking requests against a contract transcribed from a provider's reference (for providers that
 * publish no machine-readable description): JSON bodies against a small schema language and query
 * strings against the documented parameters. The simulators answer the problems in their provider's own
 * error form and record them as contract violations.
 */

export type Schema =
  | { t: 'object'; props: Record<string, Schema>; required?: string[]; nullable?: boolean }
  | { t: 'array'; items: Schema; min?: number; max?: number; nullable?: boolean }
  | { t: 'string'; enum?: readonly string[]; max?: number; nullable?: boolean; format?: 'email' | 'url' | 'date-time' }
  | { t: 'integer'; min?: number; nullable?: boolean }
  | { t: 'number'; nullable?: boolean }
  | { t: 'boolean'; nullable?: boolean }
  | { t: 'any' };

/** A documented query parameter: free text, a page size (1–100), an integer, integers, a boolean, or one of the listed values. */
export type Param = 'string' | 'limit' | 'integer' | 'boolean' | 'integers' | readonly string[];

export const isDateTime = (s: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(s) && !Number.isNaN(Date.parse(s.replace(/(\.\d{3})\d+/, '$1')));

/** Problems of `value` against `schema`, as `path: message` (Gorgias answers them as field errors). */
export function checkBody(value: unknown, schema: Schema, path = ''): Array<{ path: string; message: string }> {
  const at = path || '_schema';
  if (schema.t === 'any') return [];
  if (value === null) return 'nullable' in schema && schema.nullable ? [] : [{ path: at, message: 'Field may not be null.' }];
  switch (schema.t) {
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) return [{ path: at, message: 'Invalid input type.' }];
      const v = value as Record<string, unknown>;
      const out: Array<{ path: string; message: string }> = [];
      for (const r of schema.required ?? []) if (v[r] === undefined) out.push({ path: path ? `${path}.${r}` : r, message: 'Missing data for required field.' });
      for (const [k, x] of Object.entries(v)) {
        const p = path ? `${path}.${k}` : k;
        const s = schema.props[k];
        if (!s) out.push({ path: p, message: 'Unknown field.' });
        else if (x !== undefined) out.push(...checkBody(x, s, p));
      }
      return out;
    }
    case 'array': {
      if (!Array.isArray(value)) return [{ path: at, message: 'Not a valid list.' }];
      const out: Array<{ path: string; message: string }> = [];
      if (schema.min !== undefined && value.length < schema.min) out.push({ path: at, message: `Shorter than minimum length ${schema.min}.` });
      if (schema.max !== undefined && value.length > schema.max) out.push({ path: at, message: `Longer than maximum length ${schema.max}.` });
      value.forEach((x, i) => out.push(...checkBody(x, schema.items, path ? `${path}.${i}` : String(i))));
      return out;
    }
    case 'string': {
      if (typeof value !== 'string') return [{ path: at, message: 'Not a valid string.' }];
      if (schema.enum && !schema.enum.includes(value)) return [{ path: at, message: `Must be one of: ${schema.enum.join(', ')}.` }];
      if (schema.max !== undefined && value.length > schema.max) return [{ path: at, message: `Longer than maximum length ${schema.max}.` }];
      if (schema.format === 'email' && !/^[^@\s]+@[^@\s]+$/.test(value)) return [{ path: at, message: 'Not a valid email address.' }];
      if (schema.format === 'url' && !/^https?:\/\/\S+$/.test(value)) return [{ path: at, message: 'Not a valid URL.' }];
      if (schema.format === 'date-time' && !isDateTime(value)) return [{ path: at, message: 'Not a valid datetime.' }];
      return [];
    }
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) return [{ path: at, message: 'Not a valid integer.' }];
      return schema.min !== undefined && value < schema.min ? [{ path: at, message: `Must be greater than or equal to ${schema.min}.` }] : [];
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? [] : [{ path: at, message: 'Not a valid number.' }];
    case 'boolean':
      return typeof value === 'boolean' ? [] : [{ path: at, message: 'Not a valid boolean.' }];
  }
}

/** Problems of a query string against the documented parameters of a listing. */
export function checkQuery(query: URLSearchParams, params: Record<string, Param>): Array<{ path: string; message: string }> {
  const out: Array<{ path: string; message: string }> = [];
  for (const key of new Set(query.keys())) {
    const kind = params[key];
    const values = query.getAll(key);
    if (!kind) {
      out.push({ path: key, message: 'Unknown field.' });
      continue;
    }
    if (kind !== 'integers' && values.length > 1) out.push({ path: key, message: 'Only one value is allowed.' });
    for (const v of values) {
      if (Array.isArray(kind)) {
        if (!kind.includes(v)) out.push({ path: key, message: `Must be one of: ${kind.join(', ')}.` });
      } else if (kind === 'limit') {
        if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 100) out.push({ path: key, message: 'Must be greater than or equal to 1 and less than or equal to 100.' });
      } else if (kind === 'integer' || kind === 'integers') {
        if (!/^\d+$/.test(v) || Number(v) < 1) out.push({ path: key, message: 'Not a valid integer.' });
      } else if (kind === 'boolean') {
        if (v !== 'true' && v !== 'false') out.push({ path: key, message: 'Not a valid boolean.' });
      }
    }
  }
  return out;
}

