/**
 * Built-in sandbox products: the Zendesk and HubSpot simulators (the same ones the tests use), served in
 * this process on loopback, seeded with a small realistic account, and changing a few records on their
 * own every minute so incremental sync and events can be watched. They are connected through the real
 * adapters, as providers `sandbox_zendesk` and `sandbox_hubspot`, with no credentials.
 *
 * Each project has accounts of its own (started at its first sandbox connection, or at Omniport's start for
 * the projects that have one): no project reads or changes another's demo data. The accounts live in memory;
 * ./ids.ts says what a restart keeps.
 */
import { AppError } from '../core/errors';
import { ProviderError } from '../providers/http-client';
import type { ProviderAdapter } from '../providers/types';
import { hubspotAdapter } from '../providers/hubspot';
import { zendeskAdapter } from '../providers/zendesk';
import { startHubSpotSimulator, type HubSpotSimulator } from './simulators/hubspot';
import { startZendeskSimulator, type ZendeskSimulator } from './simulators/zendesk';
import { changeHubSpot, changeZendesk, seedHubSpot, seedZendesk } from './seed';
import { deliverToOmniport, type OmniportReceiver } from './deliver';
import { idBaseOfStart } from './ids';

const ZENDESK_CREDENTIAL = { email: 'agent@example.com', apiToken: 'sandbox-token' };
const HUBSPOT_TOKEN = 'pat-sandbox-token';
/** Request log entries a simulator keeps (the sandbox runs for days; tests read theirs whole). */
const REQUEST_LOG = 1_000;

export interface SandboxOptions {
  /** Records changed on their own every `changeEveryMs` (default a minute; 0: never). */
  changeEveryMs?: number;
  /** The first id of what this start makes (default: from the time of the start, ./ids.ts). */
  idBase?: number;
}

/** One project's sandbox products. */
export interface SandboxAccounts {
  zendesk: ZendeskSimulator;
  hubspot: HubSpotSimulator;
}

export class Sandbox {
  private readonly accounts = new Map<string, SandboxAccounts>();
  private readonly starting = new Map<string, Promise<SandboxAccounts>>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Only the process that serves the sandbox (`omniport start`) starts accounts; another (the CLI, a worker) would make its own. */
  private started = false;
  /** After the sandbox changed records of a project's accounts, with the products whose changes send no webhook. */
  onChanged: ((projectId: string, providers: string[]) => void) | undefined;
  /** This process's HTTP server, the only place the simulators' webhooks go (wired once it is built). */
  receiver: OmniportReceiver | undefined;

  private readonly idBase: number;

  constructor(private readonly opts: SandboxOptions = {}) {
    this.idBase = opts.idBase ?? idBaseOfStart();
  }

  /** Starts the sandbox's own changes, and the accounts of these projects (those with sandbox connections). */
  async start(projectIds: Iterable<string> = []): Promise<void> {
    this.started = true;
    const every = this.opts.changeEveryMs ?? 60_000;
    if (every > 0 && !this.timer) {
      this.timer = setInterval(() => this.changeSomething(), every);
      this.timer.unref();
    }
    await Promise.all([...new Set(projectIds)].map((id) => this.prepare(id)));
  }

  /** A project's accounts, started and seeded on first use (later calls wait for the first). */
  prepare(projectId: string): Promise<SandboxAccounts> {
    if (this.closed || !this.started) return Promise.reject(notServedHere());
    let starting = this.starting.get(projectId);
    if (!starting) {
      starting = this.startAccounts(projectId);
      this.starting.set(projectId, starting);
      // A start that failed is tried again at the next use.
      starting.catch(() => this.starting.delete(projectId));
    }
    return starting;
  }

  private async startAccounts(projectId: string): Promise<SandboxAccounts> {
    const deliver = (provider: string) => deliverToOmniport(provider, () => this.receiver);
    const zendesk = await startZendeskSimulator({ credentials: [ZENDESK_CREDENTIAL], maxRequestLog: REQUEST_LOG, deliverWebhook: deliver('sandbox_zendesk') });
    const hubspot = await startHubSpotSimulator({ accessTokens: [HUBSPOT_TOKEN], maxRequestLog: REQUEST_LOG, deliverWebhook: deliver('sandbox_hubspot') }).catch(async (err: unknown) => {
      await zendesk.close();
      throw err;
    });
    seedZendesk(zendesk);
    seedHubSpot(hubspot);
    // Seeded ids are the same at every start; what is made from now on never takes an id of an earlier start.
    zendesk.state.startIdsFrom(this.idBase);
    hubspot.state.startIdsFrom(this.idBase);
    const accounts = { zendesk, hubspot };
    this.accounts.set(projectId, accounts);
    return accounts;
  }

  /** A project's accounts, when started. */
  accountsOf(projectId: string): SandboxAccounts | undefined {
    return this.accounts.get(projectId);
  }

  /** One round of the changes the sandbox makes on its own, in every project's accounts (what the timer runs). */
  changeSomething(): void {
    for (const [projectId, { zendesk, hubspot }] of this.accounts) {
      // Zendesk's changes reach Omniport as its webhooks (./deliver.ts); HubSpot's are synced.
      changeZendesk(zendesk);
      changeHubSpot(hubspot);
      this.onChanged?.(projectId, ['sandbox_hubspot']);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await Promise.allSettled([...this.starting.values()]);
    await Promise.all([...this.accounts.values()].flatMap((a) => [a.zendesk.close(), a.hubspot.close()]));
    this.accounts.clear();
    this.starting.clear();
  }

  /** The sandbox products as providers: the real adapters, bound to the project's accounts of this sandbox. */
  adapters(): ProviderAdapter[] {
    return [
      this.bind(zendeskAdapter, 'Zendesk', (a) => a.zendesk, () => ({ email: ZENDESK_CREDENTIAL.email, api_token: ZENDESK_CREDENTIAL.apiToken })),
      this.bind(hubspotAdapter, 'HubSpot', (a) => a.hubspot, () => ({ access_token: HUBSPOT_TOKEN })),
    ];
  }

  private bind(real: ProviderAdapter, product: string, simulator: (a: SandboxAccounts) => { url: string }, credentials: () => Record<string, string>): ProviderAdapter {
    const name = `sandbox_${real.manifest.name}`;
    const { oauth: _oauth, budgets: _budgets, ...manifest } = real.manifest;
    // No provider app (HubSpot's app webhooks need the project's OAuth app): webhooks created through the API only.
    const { appWebhooks: _appWebhooks, ...adapter } = real;
    return {
      ...adapter,
      // A full run marks what it did not list deleted: after a restart, what the earlier start made (./ids.ts).
      syncers: real.syncers.map((s) => ({ ...s, reportsDeletions: false })),
      ...(real.ticketing ? { ticketing: explainingMissing(real.ticketing, name) } : {}),
      ...(real.crm ? { crm: explainingMissing(real.crm, name) } : {}),
      manifest: {
        ...manifest,
        name,
        displayName: `Sandbox ${product}`,
        authKind: 'api_token',
        defaultBaseUrl: `sandbox://${real.manifest.name}`,
        limitations: [`A built-in sandbox with demo data, one account per project, kept in this process's memory.`, ...(real.manifest.limitations ?? [])],
        sandbox: {
          baseUrl: (projectId) => {
            const accounts = this.accounts.get(projectId);
            if (accounts) return simulator(accounts).url;
            if (this.closed || !this.started) throw notServedHere(name);
            // Started at Omniport's start for every project with a sandbox connection: only a race gets here.
            void this.prepare(projectId).catch(() => undefined);
            throw new AppError('provider_unavailable', `the ${name} sandbox of this project is starting: try again in a second`, { provider: name }, { 'retry-after': '1' });
          },
          prepare: async (projectId) => simulator(await this.prepare(projectId)).url,
          credentials,
          webhookBase: () => this.receiver?.origins()[0],
        },
      },
    };
  }
}

/**
 * A sandbox's writes: the product's 404 (a record not in this start's account, most often one made before
 * Omniport last started, ./ids.ts) said as what it is, a missing record, instead of a provider failure (502).
 */
function explainingMissing<T extends object>(operations: T, provider: string): T {
  const wrapped: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(operations)) {
    if (typeof value !== 'function') {
      wrapped[key] = value;
      continue;
    }
    wrapped[key] = (...args: unknown[]) => {
      const result: unknown = value.apply(operations, args);
      return result instanceof Promise ? result.catch((err: unknown) => Promise.reject(missingRecord(err, provider))) : result;
    };
  }
  return wrapped as T;
}

function missingRecord(err: unknown, provider: string): unknown {
  if (!(err instanceof ProviderError) || err.providerStatus !== 404) return err;
  return new AppError(
    'not_found',
    `${provider} has no such record: the sandbox keeps its accounts in memory, so what was made in it before Omniport last started is gone (its demo records stay)`,
    { provider, provider_status: 404, provider_message: err.providerMessage },
  );
}

/** Asked of a process that does not serve the sandbox: its accounts are in the memory of the one that does. */
function notServedHere(provider = 'the sandbox'): AppError {
  return new AppError(
    'provider_unavailable',
    `${provider} is a built-in sandbox: its accounts live in the memory of the \`omniport start\` process that serves them, and this process is not that one (a command or worker of its own cannot reach them); that server syncs its sandbox connections itself, or on POST /sync`,
    { provider },
  );
}
