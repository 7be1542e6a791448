import { runCrmConformance } from './crm-suite';
import { zendeskSellDriver } from './drivers/zendesk-sell';

runCrmConformance(zendeskSellDriver);
