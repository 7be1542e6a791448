import { runTicketingConformance } from './ticketing-suite';
import { clickupDriver } from './drivers/clickup';

runTicketingConformance(clickupDriver);
