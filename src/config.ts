import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { z } from 'zod';

/** Runtime configuration, read once from the environment (see the table in README.md). */
const BUDGET_OVERRIDE = String.raw`\s*[a-z0-9_-]+\.[a-z0-9 _-]+=\d+/\d+(\.\d+)?\s*`;
const BUDGET_OVERRIDES = new RegExp(`^(${BUDGET_OVERRIDE}(,${BUDGET_OVERRIDE})*)?$`, 'i');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  OMNIPORT_DATA_DIR: z.string().default('.omniport'),
  OMNIPORT_SECRET_KEY: z.string().optional(),
  OMNIPORT_SECRET_KEYS: z.string().optional(),
  OMNIPORT_SECRET_KEY_FILE: z.string().optional(),
  XDG_CONFIG_HOME: z.string().optional(),
  OMNIPORT_BOOTSTRAP_API_KEY: z.string().optional(),
  OMNIPORT_ENV: z.string().regex(/^[a-z]+$/, 'lower-case letters only').default('live'),
  OMNIPORT_PUBLIC_URL: z.string().url().optional(),
  OMNIPORT_BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(10 * 1024 * 1024),
  OMNIPORT_ALLOW_PRIVATE_URLS: z.enum(['true', 'false']).default('false'),
  OMNIPORT_WORKER: z.enum(['true', 'false']).default('true'),
  OMNIPORT_MAGIC_LINK_TTL_HOURS: z.coerce.number().positive().max(24 * 365).default(24 * 7),
  OMNIPORT_OAUTH_FLOW_TTL_MINUTES: z.coerce.number().positive().max(24 * 60).default(15),
  OMNIPORT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(1200),
  OMNIPORT_AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(0).default(60),
  OMNIPORT_TRUST_PROXY: z
    .string()
    .default('')
    .refine((v) => /^(|true|false|\d{1,2}|[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*)$/.test(v.trim()), {
      message: 'true, a hop count (1) or a comma-separated list of proxy addresses or CIDR ranges (10.0.0.0/8, 127.0.0.1)',
    }),
  OMNIPORT_IDEMPOTENCY_TTL_HOURS: z.coerce.number().positive().max(24 * 30).default(24),
  OMNIPORT_IDEMPOTENCY_STALE_SECONDS: z.coerce.number().min(1).max(3600).default(15),
  OMNIPORT_AUDIT_RETENTION_DAYS: z.coerce.number().positive().max(3650).default(90),
  OMNIPORT_PACE_PROVIDER_BUDGETS: z.enum(['true', 'false']).default('true'),
  OMNIPORT_SANDBOX: z.enum(['true', 'false']).optional(),
  OMNIPORT_SANDBOX_CHANGE_SECONDS: z.coerce.number().min(0).max(86_400).default(60),
  OMNIPORT_PROVIDER_BUDGETS: z
    .string()
    .regex(BUDGET_OVERRIDES, '<provider>.<budget>=<requests>/<seconds>, comma separated (e.g. zendesk.account=700/60,hubspot.burst=190/10)')
    .default(''),
  OMNIPORT_EVENTS_RETENTION_DAYS: z.coerce.number().positive().max(3650).default(30),
  OMNIPORT_PROVIDER_CALL_RETENTION_DAYS: z.coerce.number().positive().max(3650).default(7),
  OMNIPORT_DASHBOARD_SESSION_HOURS: z.coerce.number().positive().max(24 * 30).default(12),
  OMNIPORT_WEBHOOK_RETRY_SECONDS: z
    .string()
    .regex(/^\s*\d+(\.\d+)?(\s*,\s*\d+(\.\d+)?)*\s*$/, 'seconds before each retry, comma separated (e.g. 5,60,600,3600,21600,43200)')
    .default('5,60,600,3600,21600,43200'),
  OMNIPORT_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  OMNIPORT_WEBHOOK_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1_000),
  OMNIPORT_SYNC_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  OMNIPORT_JOB_POLL_SECONDS: z.coerce.number().min(0.5).max(60).default(2),
  OMNIPORT_METRICS_TOKEN: z.string().refine((v) => v === '' || v.length >= 16, 'at least 16 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface Config {
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  /** OMNIPORT_SECRET_KEYS (or the single OMNIPORT_SECRET_KEY): keys separated by commas, newest first. */
  secretKeys?: string;
  /** Embedded mode without a key in the environment: the generated key file, outside the data directory. */
  secretKeyFile: string;
  bootstrapApiKey?: string;
  keyEnv: string;
  publicUrl?: string;
  bodyLimitBytes: number;
  /** Attachment URLs may point at private and loopback addresses (off: SSRF protection). */
  allowPrivateUrls: boolean;
  /** `omniport start` also runs jobs (sync) in the same process. */
  runWorker: boolean;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** Sync jobs a process runs at once, and how often its idle workers poll (queued jobs wake them sooner). */
  jobs: { concurrency: number; pollingIntervalSeconds: number };
  /** Bearer token that opens GET /metrics to other machines (without it: loopback clients only). */
  metricsToken?: string;
  /** Requests per minute and API key (0: no limit). */
  rateLimitPerMinute: number;
  /** Requests without a valid API key per minute and source address, before 429 (0: no limit). */
  authFailuresPerMinute: number;
  /** Which reverse proxies are trusted for the client's address and protocol (docs/production.md). */
  trustProxy: TrustProxy;
  /** How long the first answer of a write with an Idempotency-Key is kept for replay. */
  idempotencyTtlHours: number;
  /** A running Idempotency-Key claim whose heartbeat is older than this lost its process: a retry takes it over. */
  idempotencyStaleSeconds: number;
  /** How long audit log entries are kept. */
  auditRetentionDays: number;
  /** Pace provider calls to the budgets the providers document (off only for tests against simulators). */
  paceProviderBudgets: boolean;
  /** Budgets of the customers' plans where they differ from the manifests' defaults, by `<provider>.<budget>`. */
  providerBudgetOverrides: Record<string, { requests: number; perSeconds: number }>;
  /** How long events (the feed, and the deliveries of webhooks) are kept. */
  eventsRetentionDays: number;
  /** Built-in sandbox products with demo data (src/sandbox): on by default with the embedded database only. */
  sandbox: boolean;
  /** How often the sandbox changes a few records on its own (0: never; shorter for tests). */
  sandboxChangeSeconds: number;
  /** How long the log of provider calls (shown on the dashboard) is kept. */
  providerCallRetentionDays: number;
  /** How long a dashboard sign-in lasts. */
  dashboardSessionHours: number;
  webhooks: { retryScheduleMs: number[]; timeoutMs: number; pollMs: number };
  /** Default lifetime of a magic link (each POST /magic-link/create may choose its own). */
  magicLinkTtlHours: number;
  /** How long an OAuth authorization started on the connect page may take (its `state` expires then). */
  oauthFlowTtlMinutes: number;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.OMNIPORT_SECRET_KEY && e.OMNIPORT_SECRET_KEYS) {
    throw new ConfigError('Set OMNIPORT_SECRET_KEYS or OMNIPORT_SECRET_KEY, not both (OMNIPORT_SECRET_KEYS takes a list, newest first).');
  }
  const dataDir = path.resolve(e.OMNIPORT_DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL || undefined,
    dataDir,
    secretKeys: e.OMNIPORT_SECRET_KEYS || e.OMNIPORT_SECRET_KEY || undefined,
    secretKeyFile: e.OMNIPORT_SECRET_KEY_FILE ? path.resolve(e.OMNIPORT_SECRET_KEY_FILE) : defaultKeyFile(dataDir, e.XDG_CONFIG_HOME),
    bootstrapApiKey: e.OMNIPORT_BOOTSTRAP_API_KEY || undefined,
    keyEnv: e.OMNIPORT_ENV,
    publicUrl: e.OMNIPORT_PUBLIC_URL,
    bodyLimitBytes: e.OMNIPORT_BODY_LIMIT_BYTES,
    allowPrivateUrls: e.OMNIPORT_ALLOW_PRIVATE_URLS === 'true',
    runWorker: e.OMNIPORT_WORKER === 'true',
    logLevel: e.LOG_LEVEL,
    metricsToken: e.OMNIPORT_METRICS_TOKEN || undefined,
    jobs: { concurrency: e.OMNIPORT_SYNC_CONCURRENCY, pollingIntervalSeconds: e.OMNIPORT_JOB_POLL_SECONDS },
    rateLimitPerMinute: e.OMNIPORT_RATE_LIMIT_PER_MINUTE,
    authFailuresPerMinute: e.OMNIPORT_AUTH_FAILURES_PER_MINUTE,
    trustProxy: trustProxyOf(e.OMNIPORT_TRUST_PROXY),
    idempotencyTtlHours: e.OMNIPORT_IDEMPOTENCY_TTL_HOURS,
    idempotencyStaleSeconds: e.OMNIPORT_IDEMPOTENCY_STALE_SECONDS,
    auditRetentionDays: e.OMNIPORT_AUDIT_RETENTION_DAYS,
    paceProviderBudgets: e.OMNIPORT_PACE_PROVIDER_BUDGETS === 'true',
    providerBudgetOverrides: Object.fromEntries(
      e.OMNIPORT_PROVIDER_BUDGETS.split(',')
        .map((item) => item.trim())
        .filter(Boolean)
        .map((item) => {
          const [name, value] = item.split('=') as [string, string];
          const [requests, seconds] = value.split('/');
          return [name.trim(), { requests: Number(requests), perSeconds: Number(seconds) }];
        }),
    ),
    eventsRetentionDays: e.OMNIPORT_EVENTS_RETENTION_DAYS,
    sandbox: e.OMNIPORT_SANDBOX ? e.OMNIPORT_SANDBOX === 'true' : !e.DATABASE_URL,
    sandboxChangeSeconds: e.OMNIPORT_SANDBOX_CHANGE_SECONDS,
    providerCallRetentionDays: e.OMNIPORT_PROVIDER_CALL_RETENTION_DAYS,
    dashboardSessionHours: e.OMNIPORT_DASHBOARD_SESSION_HOURS,
    webhooks: {
      retryScheduleMs: e.OMNIPORT_WEBHOOK_RETRY_SECONDS.split(',').map((s) => Math.round(Number(s.trim()) * 1000)),
      timeoutMs: e.OMNIPORT_WEBHOOK_TIMEOUT_MS,
      pollMs: e.OMNIPORT_WEBHOOK_POLL_MS,
    },
    magicLinkTtlHours: e.OMNIPORT_MAGIC_LINK_TTL_HOURS,
    oauthFlowTtlMinutes: e.OMNIPORT_OAUTH_FLOW_TTL_MINUTES,
  };
}

/**
 * Where the embedded mode keeps its generated key: in the user's configuration directory, one file per
 * data directory, so a copy of the data directory (a backup) does not also hold the key to its credentials.
 */
function defaultKeyFile(dataDir: string, xdgConfigHome: string | undefined): string {
  const configHome = xdgConfigHome && path.isAbsolute(xdgConfigHome) ? xdgConfigHome : path.join(os.homedir(), '.config');
  return path.join(configHome, 'omniport', 'keys', `${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}.key`);
}

/** Fastify's `trustProxy`: off, every proxy, the proxies' addresses, or the hops to trust (address, hop from the server). */
export type TrustProxy = boolean | string[] | ((address: string, hop: number) => boolean);

/** OMNIPORT_TRUST_PROXY as Fastify's `trustProxy`: off, every proxy, a hop count, or the proxies' addresses. */
function trustProxyOf(value: string): TrustProxy {
  const v = value.trim();
  if (v === '' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    return (_address, hop) => hop < hops;
  }
  return v.split(',').map((a) => a.trim()).filter(Boolean);
}
