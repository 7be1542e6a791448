import { runTicketingConformance } from './ticketing-suite';
import { freshdeskDriver } from './drivers/freshdesk';

runTicketingConformance(freshdeskDriver);
