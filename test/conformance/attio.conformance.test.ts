import { runCrmConformance } from './crm-suite';
import { attioDriver } from './drivers/attio';

runCrmConformance(attioDriver);
