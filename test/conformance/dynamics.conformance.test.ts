import { runCrmConformance } from './crm-suite';
import { dynamicsDriver } from './drivers/dynamics';

runCrmConformance(dynamicsDriver);
