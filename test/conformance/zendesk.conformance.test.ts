import { runTicketingConformance } from './ticketing-suite';
import { zendeskDriver } from './drivers/zendesk';

runTicketingConformance(zendeskDriver);
