import { runTicketingConformance } from './ticketing-suite';
import { githubDriver } from './drivers/github';

runTicketingConformance(githubDriver);
