import { runTicketingConformance } from './ticketing-suite';
import { jiraDriver } from './drivers/jira';

runTicketingConformance(jiraDriver);
