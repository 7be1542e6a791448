/**
 * The schema the simulator executes: Linear's published SDL (shared/provider-specs/linear/schema.graphql,
 * from linear/linear packages/sdk/src/schema.graphql) when present, so every query the adapter sends is
 * validated and executed against the real schema; otherwise the hand-written subset in fallback-sdl.ts
 * (the types and fields the simulator models), and spec validation is reported as skipped.
 *
 * Linear's custom scalars get strict implementations: responses must serialize DateTime as ISO 8601
 * date-times and TimelessDate as `YYYY-MM-DD` (a mismatch is a response violation); inputs accept what
 * Linear documents (ISO 8601, year shortcuts like `2021`, durations like `-P2W1D`).
 */
import { readFileSync } from 'node:fs';
import { buildSchema, GraphQLError, GraphQLScalarType, Kind, valueFromASTUntyped, type GraphQLSchema, type ValueNode } from 'graphql';
import { specPath } from '../../support/provider-specs';
import { FALLBACK_SDL } from './fallback-sdl';

export interface LoadedSchema {
  schema: GraphQLSchema;
  /** Executing Linear's published schema (not the fallback subset). */
  official: boolean;
  file?: string;
  /** Why spec validation is skipped (the official SDL is absent). */
  skipReason?: string;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const DURATION = /^-?P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/;

/** An ISO 8601 duration (`-P2W1D`) added to `now`. */
export function applyDuration(duration: string, now = Date.now()): Date {
  const m = /^(-)?P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(duration);
  if (!m) throw new TypeError(`not a duration: ${duration}`);
  const sign = m[1] ? -1 : 1;
  const d = new Date(now);
  d.setUTCFullYear(d.getUTCFullYear() + sign * Number(m[2] ?? 0));
  d.setUTCMonth(d.getUTCMonth() + sign * Number(m[3] ?? 0));
  d.setUTCDate(d.getUTCDate() + sign * (Number(m[4] ?? 0) * 7 + Number(m[5] ?? 0)));
  d.setTime(d.getTime() + sign * ((Number(m[6] ?? 0) * 3600 + Number(m[7] ?? 0) * 60 + Number(m[8] ?? 0)) * 1000));
  return d;
}

/** DateTime / DateTimeOrDuration input → ISO string. */
function parseDateTimeInput(v: unknown, name: string): string {
  if (typeof v !== 'string') throw new GraphQLError(`${name} cannot represent a non-string value: ${JSON.stringify(v)}`);
  if (DURATION.test(v)) return applyDuration(v).toISOString();
  if (/^\d{4}$/.test(v)) return new Date(`${v}-01-01T00:00:00.000Z`).toISOString();
  if (ISO_DATE_TIME.test(v) || ISO_DATE.test(v)) {
    const t = Date.parse(v);
    if (!Number.isNaN(t)) return new Date(t).toISOString();
  }
  throw new GraphQLError(`${name} cannot represent an invalid date-time string: ${JSON.stringify(v)}`);
}

/** TimelessDate input → `YYYY-MM-DD`. */
function parseDateInput(v: unknown, name: string): string {
  if (typeof v !== 'string') throw new GraphQLError(`${name} cannot represent a non-string value: ${JSON.stringify(v)}`);
  if (DURATION.test(v)) return applyDuration(v).toISOString().slice(0, 10);
  if (/^\d{4}$/.test(v)) return `${v}-01-01`;
  if (ISO_DATE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`))) return v;
  throw new GraphQLError(`${name} cannot represent an invalid date string: ${JSON.stringify(v)}`);
}

function literal(parse: (v: unknown) => unknown) {
  return (ast: ValueNode, variables?: Record<string, unknown> | null) => {
    if (ast.kind === Kind.NULL) return null;
    return parse(valueFromASTUntyped(ast, variables ?? undefined));
  };
}

/** Gives Linear's custom scalars strict serialization (responses) and Linear's parsing (inputs). */
function patchScalars(schema: GraphQLSchema): void {
  const patch = (name: string, impl: { serialize: (v: unknown) => unknown; parseValue: (v: unknown) => unknown }) => {
    const t = schema.getType(name);
    if (!(t instanceof GraphQLScalarType)) return;
    Object.assign(t, { serialize: impl.serialize, parseValue: impl.parseValue, parseLiteral: literal(impl.parseValue) });
  };
  const dateTime = (name: string) => ({
    serialize(v: unknown) {
      if (v instanceof Date) return v.toISOString();
      if (typeof v !== 'string' || !ISO_DATE_TIME.test(v) || Number.isNaN(Date.parse(v))) {
        throw new GraphQLError(`${name} cannot serialize ${JSON.stringify(v)}: not an ISO 8601 date-time`);
      }
      return v;
    },
    parseValue: (v: unknown) => parseDateTimeInput(v, name),
  });
  patch('DateTime', dateTime('DateTime'));
  patch('DateTimeOrDuration', dateTime('DateTimeOrDuration'));
  const timeless = (name: string) => ({
    serialize(v: unknown) {
      if (typeof v !== 'string' || !ISO_DATE.test(v)) throw new GraphQLError(`${name} cannot serialize ${JSON.stringify(v)}: not a YYYY-MM-DD date`);
      return v;
    },
    parseValue: (v: unknown) => parseDateInput(v, name),
  });
  patch('TimelessDate', timeless('TimelessDate'));
  patch('TimelessDateOrDuration', timeless('TimelessDateOrDuration'));
  patch('JSONObject', {
    serialize(v: unknown) {
      if (!v || typeof v !== 'object' || Array.isArray(v)) throw new GraphQLError(`JSONObject cannot serialize ${JSON.stringify(v)}`);
      return v;
    },
    parseValue(v: unknown) {
      if (!v || typeof v !== 'object' || Array.isArray(v)) throw new GraphQLError(`JSONObject cannot represent ${JSON.stringify(v)}`);
      return v;
    },
  });
  patch('JSON', { serialize: (v) => v, parseValue: (v) => v });
  patch('UUID', {
    serialize: (v) => v,
    parseValue(v: unknown) {
      if (typeof v !== 'string' || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v)) throw new GraphQLError(`UUID cannot represent ${JSON.stringify(v)}`);
      return v;
    },
  });
}

const cache = new Map<string, LoadedSchema>();

/** Linear's schema (official when present, else the fallback subset), built once per file and process. */
export function loadLinearSchema(file: string | null | undefined = specPath('linear', 'schema.graphql')): LoadedSchema {
  const key = file ?? '<fallback>';
  const cached = cache.get(key);
  if (cached) return cached;
  let loaded: LoadedSchema;
  if (file) {
    const schema = buildSchema(readFileSync(file, 'utf8'));
    patchScalars(schema);
    loaded = { schema, official: true, file };
  } else {
    const schema = buildSchema(FALLBACK_SDL);
    patchScalars(schema);
    loaded = {
      schema,
      official: false,
      skipReason: 'shared/provider-specs/linear/schema.graphql is absent: queries run against the simulator’s own subset of the schema, not validated against Linear’s published SDL',
    };
  }
  cache.set(key, loaded);
  return loaded;
}
