import { runCrmConformance } from './crm-suite';
import { zohoDriver } from './drivers/zoho';

runCrmConformance(zohoDriver);
