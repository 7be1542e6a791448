import { runCrmConformance } from './crm-suite';
import { salesforceDriver } from './drivers/salesforce';

runCrmConformance(salesforceDriver);
