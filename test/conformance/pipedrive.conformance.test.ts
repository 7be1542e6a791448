import { runCrmConformance } from './crm-suite';
import { pipedriveDriver } from './drivers/pipedrive';

runCrmConformance(pipedriveDriver);
