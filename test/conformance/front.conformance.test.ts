import { runTicketingConformance } from './ticketing-suite';
import { frontDriver } from './drivers/front';

runTicketingConformance(frontDriver);
