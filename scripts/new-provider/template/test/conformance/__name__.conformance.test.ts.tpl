import { runTicketingConformance } from './ticketing-suite';
import { __camel__Driver } from './drivers/__name__';

runTicketingConformance(__camel__Driver);
