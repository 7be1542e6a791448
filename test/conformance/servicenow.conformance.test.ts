import { runTicketingConformance } from './ticketing-suite';
import { servicenowDriver } from './drivers/servicenow';

runTicketingConformance(servicenowDriver);
