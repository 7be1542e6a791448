/** The declared contracts of the providers without a machine-readable description, by provider. */
import type { ProviderContract } from './contract';
import { contract as freshdesk } from './freshdesk.contract';
import { contract as gorgias } from './gorgias.contract';
import { contract as helpscout } from './helpscout.contract';
import { contract as servicenow } from './servicenow.contract';
import { contract as dynamics } from './dynamics.contract';
import { contract as zendeskSell } from './zendesk-sell.contract';

export const CONTRACTS: Record<string, ProviderContract> = { freshdesk, gorgias, helpscout, servicenow, dynamics, 'zendesk-sell': zendeskSell };
