import type { ProviderManifest } from './manifest';
import type { ProviderAdapter } from './types';
import { asanaAdapter } from './asana';
import { attioAdapter } from './attio';
import { clickupAdapter } from './clickup';
import { dynamicsAdapter } from './dynamics';
import { closeAdapter } from './close';
import { freshdeskAdapter } from './freshdesk';
import { frontAdapter } from './front';
import { githubAdapter } from './github';
import { gorgiasAdapter } from './gorgias';
import { helpscoutAdapter } from './helpscout';
import { gitlabAdapter } from './gitlab';
import { hubspotAdapter } from './hubspot';
import { intercomAdapter } from './intercom';
import { jiraAdapter } from './jira';
import { linearAdapter } from './linear';
import { pipedriveAdapter } from './pipedrive';
import { salesforceAdapter } from './salesforce';
import { servicenowAdapter } from './servicenow';
import { zohoAdapter } from './zoho';
import { zendeskSellAdapter } from './zendesk-sell';
import { zendeskAdapter } from './zendesk';

/** Every provider Omniport can connect to. Each provider issue adds its adapter to `defaultProviders`. */
export class ProviderRegistry {
  private readonly byName = new Map<string, ProviderAdapter>();

  constructor(adapters: ProviderAdapter[]) {
    for (const a of adapters) this.byName.set(a.manifest.name, a);
  }

  get(name: string): ProviderManifest | undefined {
    return this.byName.get(name)?.manifest;
  }

  adapter(name: string): ProviderAdapter | undefined {
    return this.byName.get(name);
  }

  list(): ProviderManifest[] {
    return [...this.byName.values()].map((a) => a.manifest);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }
}

export function defaultProviders(): ProviderAdapter[] {
  return [zendeskAdapter, jiraAdapter, githubAdapter, gitlabAdapter, frontAdapter, linearAdapter, gorgiasAdapter, freshdeskAdapter, intercomAdapter, asanaAdapter, clickupAdapter, servicenowAdapter, helpscoutAdapter, hubspotAdapter, pipedriveAdapter, closeAdapter, salesforceAdapter, attioAdapter, dynamicsAdapter, zohoAdapter, zendeskSellAdapter];
}
