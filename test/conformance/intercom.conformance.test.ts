import { runTicketingConformance } from './ticketing-suite';
import { intercomDriver } from './drivers/intercom';

runTicketingConformance(intercomDriver);
