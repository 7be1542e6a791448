import { runCrmConformance } from './crm-suite';
import { hubspotDriver } from './drivers/hubspot';

runCrmConformance(hubspotDriver);
