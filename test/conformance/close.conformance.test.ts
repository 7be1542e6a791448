import { runCrmConformance } from './crm-suite';
import { closeDriver } from './drivers/close';

runCrmConformance(closeDriver);
