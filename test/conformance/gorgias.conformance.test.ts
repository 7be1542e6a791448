import { runTicketingConformance } from './ticketing-suite';
import { gorgiasDriver } from './drivers/gorgias';

runTicketingConformance(gorgiasDriver);
