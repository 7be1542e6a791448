/**
 * The sandbox's demo accounts: a support desk (Zendesk) and a sales team (HubSpot) of a made-up
 * company, deterministic so every start looks the same, and the small changes made on their own.
 */
import type { HubSpotSimulator } from './simulators/hubspot';
import type { ZendeskSimulator } from './simulators/zendesk';

const COMPANIES = [
  ['Northwind Traders', 'northwind.example'],
  ['Contoso Pharmaceuticals', 'contoso.example'],
  ['Fabrikam Robotics', 'fabrikam.example'],
  ['Tailspin Toys', 'tailspin.example'],
  ['Wide World Importers', 'wideworld.example'],
  ['Litware Analytics', 'litware.example'],
  ['Proseware Health', 'proseware.example'],
  ['Adventure Works Cycles', 'adventure-works.example'],
] as const;
const FIRST = ['Maya', 'Jonas', 'Priya', 'Tomás', 'Aiko', 'Lena', 'Omar', 'Chloé', 'Kwame', 'Sofia', 'Ravi', 'Ingrid', 'Mateo', 'Hana', 'Felix'];
const LAST = ['Okafor', 'Lindqvist', 'Sharma', 'García', 'Tanaka', 'Novak', 'Haddad', 'Dubois', 'Mensah', 'Rossi', 'Iyer', 'Berg', 'Silva', 'Kim', 'Wagner'];
const SUBJECTS = [
  'Cannot log in after password reset',
  'Invoice shows the wrong VAT number',
  'Export to CSV times out',
  'Refund for a duplicate charge',
  'Mobile app crashes on start',
  'How do I add a second admin?',
  'Shipping address cannot be changed',
  'Two-factor codes arrive late',
  'Upgrade to the annual plan',
  'Webhook deliveries failing with 401',
  'Dashboard loads slowly since Monday',
  'Cancel my subscription',
  'Single sign-on with Okta',
  'Printer on fire',
  'Data import skipped some rows',
];
const DEAL_KINDS = ['annual licence', 'pilot', 'expansion: 50 seats', 'renewal', 'professional services', 'support upgrade'];
const TICKETS = 300;

/** A fixed sequence of choices (the same account at every start). */
function picker(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
}

const personName = (i: number) => [FIRST[i % FIRST.length]!, LAST[(i * 7) % LAST.length]!] as const;

export function seedZendesk(sim: ZendeskSimulator): void {
  const pick = picker(7);
  const organizations = COMPANIES.map(([name, domain]) => sim.addOrganization({ name, domain_names: [domain] }));
  for (let i = 0; i < 4; i++) {
    const [first, last] = personName(i + 20);
    sim.addUser({ name: `${first} ${last}`, email: `${first.toLowerCase()}@support.example`, role: 'agent' });
  }
  for (let i = 0; i < 60; i++) {
    const [first, last] = personName(i);
    const org = organizations[i % organizations.length]!;
    const domain = org.domain_names[0]!;
    sim.addUser({ name: `${first} ${last}`, email: `${first.toLowerCase()}.${last.toLowerCase()}${i}@${domain}`, organization_id: org.id });
  }
  // Spread over the last 90 days, three comments each (requester, agent, requester).
  sim.seedTickets(TICKETS, { commentsPerTicket: 3, spacingMs: Math.floor((90 * 86_400_000) / TICKETS), seed: 7, overrides: () => ({ subject: pick(SUBJECTS) }) });
}

export function seedHubSpot(sim: HubSpotSimulator): void {
  const pick = picker(11);
  const companies = sim.seedCompanies(COMPANIES.length, {
    properties: (i) => ({ name: COMPANIES[i]![0], domain: COMPANIES[i]![1] }),
  });
  sim.seedContacts(250, {
    associateCompanies: true,
    properties: (i) => {
      const [first, last] = personName(i);
      return { firstname: first, lastname: last, email: `${first.toLowerCase()}.${last.toLowerCase()}${i}@${COMPANIES[i % COMPANIES.length]![1]}` };
    },
  });
  sim.seedDeals(80, {
    associateContacts: true,
    properties: (i) => ({ dealname: `${companies[i % companies.length]!.properties.name} — ${pick(DEAL_KINDS)}` }),
  });
  sim.seedEngagements('notes', 60, { associateWith: 'contacts' });
  sim.seedEngagements('tasks', 40, { associateWith: 'deals' });
  sim.seedEngagements('calls', 30, { associateWith: 'contacts' });
}

/** A few changes, as people at work would make them: a reply, a status change, a new ticket now and then. */
export function changeZendesk(sim: ZendeskSimulator): void {
  const open = [...sim.state.tickets.values()].filter((t) => !t.deleted && t.status !== 'closed');
  if (open.length === 0) return;
  const now = Date.now();
  const ticket = open[now % open.length]!;
  sim.addCommentRemotely(ticket.id, { body: 'Any news on this? It is still happening for us.', public: true }, ticket.requester_id);
  const other = open[(now >> 3) % open.length]!;
  sim.updateTicketRemotely(other.id, { status: other.status === 'pending' ? 'open' : 'pending' });
  if ((now >> 10) % 3 === 0) {
    sim.createTicketRemotely({ subject: SUBJECTS[now % SUBJECTS.length]!, comment: { body: 'Hello, this started a few minutes ago.' }, requester_id: ticket.requester_id });
  }
}

/** A contact's details updated and a deal moved one stage on. */
export function changeHubSpot(sim: HubSpotSimulator): void {
  const contacts = sim.records('contacts');
  const deals = sim.records('deals');
  const now = Date.now();
  const contact = contacts[now % Math.max(1, contacts.length)];
  if (contact) sim.updateRecord('contacts', contact.id, { jobtitle: ['Head of Support', 'CTO', 'Operations Lead', 'Buyer'][now % 4]! });
  const deal = deals[(now >> 4) % Math.max(1, deals.length)];
  const stages = ['appointmentscheduled', 'qualifiedtobuy', 'presentationscheduled', 'decisionmakerboughtin', 'contractsent', 'closedwon'];
  if (deal) {
    const at = stages.indexOf(String(deal.properties.dealstage));
    if (at >= 0 && at < stages.length - 1) sim.updateRecord('deals', deal.id, { dealstage: stages[at + 1]! });
  }
}
