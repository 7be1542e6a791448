import { runTicketingConformance } from './ticketing-suite';
import { helpscoutDriver } from './drivers/helpscout';

runTicketingConformance(helpscoutDriver);
