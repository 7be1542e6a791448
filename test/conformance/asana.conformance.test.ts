import { runTicketingConformance } from './ticketing-suite';
import { asanaDriver } from './drivers/asana';

runTicketingConformance(asanaDriver);
