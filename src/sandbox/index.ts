/**
 * Built-in sandbox products: the Zendesk and HubSpot simulators (the same ones the tests use), served in
 * this process on loopback, seeded with a small realistic account, and changing a few records on their
 * own every minute so incremental sync and events can be watched. They are connected through the real
 * adapters, as providers `sandbox_zendesk` and `sandbox_hubspot`, with no credentials.
 *
 * The accounts live in memory: a restart seeds them anew (what was written to them is gone, and the next
 * sync reports it deleted). Every project of this Omniport shares them: demo data only.
 */
import { AppError } from '../core/errors';
import type { ProviderAdapter } from '../providers/types';
import { hubspotAdapter } from '../providers/hubspot';
import { zendeskAdapter } from '../providers/zendesk';
import { startHubSpotSimulator, type HubSpotSimulator } from './simulators/hubspot';
import { startZendeskSimulator, type ZendeskSimulator } from './simulators/zendesk';
import { changeHubSpot, changeZendesk, seedHubSpot, seedZendesk } from './seed';
import { deliverToOmniport, type OmniportReceiver } from './deliver';

const ZENDESK_CREDENTIAL = { email: 'agent@example.com', apiToken: 'sandbox-token' };
const HUBSPOT_TOKEN = 'pat-sandbox-token';
/** Request log entries a simulator keeps (the sandbox runs for days; tests read theirs whole). */
const REQUEST_LOG = 1_000;

export interface SandboxOptions {
  /** Records changed on their own every `changeEveryMs` (default a minute; 0: never). */
  changeEveryMs?: number;
}

export class Sandbox {
  private zendesk: ZendeskSimulator | undefined;
  private hubspot: HubSpotSimulator | undefined;
  private timer: NodeJS.Timeout | undefined;
  private starting: Promise<void> | undefined;
  /** This process's HTTP server, the only place the simulators' webhooks go (wired once it is built). */
  receiver: OmniportReceiver | undefined;

  /** Starts the simulators and seeds their accounts (once; later calls wait for the first). */
  start(opts: SandboxOptions = {}): Promise<void> {
    this.starting ??= (async () => {
      const deliver = (provider: string) => deliverToOmniport(provider, () => this.receiver);
      this.zendesk = await startZendeskSimulator({ credentials: [ZENDESK_CREDENTIAL], maxRequestLog: REQUEST_LOG, deliverWebhook: deliver('sandbox_zendesk') });
      this.hubspot = await startHubSpotSimulator({ accessTokens: [HUBSPOT_TOKEN], maxRequestLog: REQUEST_LOG, deliverWebhook: deliver('sandbox_hubspot') });
      seedZendesk(this.zendesk);
      seedHubSpot(this.hubspot);
      const every = opts.changeEveryMs ?? 60_000;
      if (every > 0) {
        this.timer = setInterval(() => this.changeSomething(), every);
        this.timer.unref();
      }
    })();
    return this.starting;
  }

  /** One round of the changes the sandbox makes on its own (also what the timer runs). */
  changeSomething(): void {
    if (this.zendesk) changeZendesk(this.zendesk);
    if (this.hubspot) changeHubSpot(this.hubspot);
  }

  /** The simulators, for tests and the sandbox's own changes. */
  get simulators(): { zendesk?: ZendeskSimulator; hubspot?: HubSpotSimulator } {
    return { zendesk: this.zendesk, hubspot: this.hubspot };
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.starting?.catch(() => undefined);
    await Promise.all([this.zendesk?.close(), this.hubspot?.close()]);
    this.zendesk = this.hubspot = this.starting = undefined;
  }

  /** The sandbox products as providers: the real adapters, bound to this sandbox's address and credentials. */
  adapters(): ProviderAdapter[] {
    return [
      this.bind(zendeskAdapter, 'Zendesk', () => this.zendesk, () => ({ email: ZENDESK_CREDENTIAL.email, api_token: ZENDESK_CREDENTIAL.apiToken })),
      this.bind(hubspotAdapter, 'HubSpot', () => this.hubspot, () => ({ access_token: HUBSPOT_TOKEN })),
    ];
  }

  private bind(real: ProviderAdapter, product: string, simulator: () => { url: string } | undefined, credentials: () => Record<string, string>): ProviderAdapter {
    const name = `sandbox_${real.manifest.name}`;
    const { oauth: _oauth, budgets: _budgets, ...manifest } = real.manifest;
    // No provider app (HubSpot's app webhooks need the project's OAuth app): webhooks created through the API only.
    const { appWebhooks: _appWebhooks, ...adapter } = real;
    return {
      ...adapter,
      manifest: {
        ...manifest,
        name,
        displayName: `Sandbox ${product}`,
        authKind: 'api_token',
        defaultBaseUrl: `sandbox://${real.manifest.name}`,
        limitations: [`A built-in sandbox with demo data, shared by every project of this Omniport and seeded anew at each start.`, ...(real.manifest.limitations ?? [])],
        sandbox: {
          baseUrl: () => {
            const sim = simulator();
            if (!sim) throw new AppError('provider_unavailable', `the ${name} sandbox is not running in this process (OMNIPORT_SANDBOX)`, { provider: name });
            return sim.url;
          },
          credentials,
          webhookBase: () => this.receiver?.origins()[0],
        },
      },
    };
  }
}
