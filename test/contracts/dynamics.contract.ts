/**
 * What the Dynamics 365 adapter (src/providers/dynamics) uses of the Dataverse Web API v9.2
 * (https://learn.microsoft.com/power-apps/developer/data-platform/webapi/overview): entity sets with `$select`,
 * paging by `@odata.nextLink` (`$skiptoken`) and change tracking (`$deltatoken`), creates and updates that
 * answer the row (`Prefer: return=representation`), lookups written as `<navigation property>@odata.bind`,
 * column metadata, WhoAmI and `$batch` (whose parts are checked as requests of their own). Checked by the
 * conformance suite and dynamics.contract.test.ts (see contract.ts).
 */
import type { Endpoint, ProviderContract } from './contract';

const PA = 'https://learn.microsoft.com/power-apps/developer/data-platform';
const WEBAPI = `${PA}/webapi`;
const API = '/api/data/v9.2';
const entity = (name: string) => (name === 'opportunity' ? `https://learn.microsoft.com/dynamics365/developer/reference/entities/opportunity` : `${PA}/reference/entities/${name}`);
const stamps = ['createdon', 'modifiedon'] as const;
const address = (n: number) => ['line1', 'line2', 'city', 'stateorprovince', 'postalcode', 'country'].map((f) => `address${n}_${f}`);
const emails = ['emailaddress1', 'emailaddress2', 'emailaddress3'] as const;
// Custom columns carry their solution publisher's prefix (new_ for the default publisher).
const CUSTOM = 'new_*';
const regarding = (activity: string) => ['contact', 'account', 'opportunity'].map((t) => `regardingobjectid_${t}_${activity}@odata.bind`);

/** List (sync and change tracking), create and update of one table, with the columns read and written. */
function table(name: string, set: string, read: readonly string[], write: readonly string[]): Endpoint[] {
  const doc = [entity(name), `${WEBAPI}/query/select-columns`];
  return [
    { method: 'GET', path: `${API}/${set}`, doc: [...doc, `${WEBAPI}/query/page-results`, `${PA}/use-change-tracking-synchronize-data-external-systems`], query: ['$select', '$skiptoken', '$deltatoken'], response: read },
    { method: 'POST', path: `${API}/${set}`, doc: [...doc, `${WEBAPI}/create-entity-web-api`, `${WEBAPI}/associate-disassociate-entities-using-web-api`], query: ['$select'], body: [...write, CUSTOM], response: read },
    { method: 'PATCH', path: `${API}/${set}({id})`, doc: [...doc, `${WEBAPI}/update-delete-entities-using-web-api`, `${WEBAPI}/associate-disassociate-entities-using-web-api`], query: ['$select'], body: [...write, CUSTOM], response: read },
  ];
}

export const contract: ProviderContract = {
  provider: 'dynamics',
  docHosts: ['learn.microsoft.com'],
  endpoints: [
    { method: 'GET', path: `${API}/WhoAmI`, doc: `${WEBAPI}/reference/whoami`, response: ['UserId'] },
    { method: 'GET', path: `${API}/systemusers`, doc: [entity('systemuser'), `${WEBAPI}/query/page-results`], query: ['$select', '$skiptoken'], response: ['systemuserid', 'fullname', 'firstname', 'lastname', 'internalemailaddress', 'isdisabled', ...stamps] },
    { method: 'GET', path: `${API}/transactioncurrencies`, doc: [entity('transactioncurrency'), `${WEBAPI}/query/page-results`], query: ['$select', '$skiptoken'], response: ['transactioncurrencyid', 'isocurrencycode'] },
    { method: 'GET', path: `${API}/EntityDefinitions(LogicalName={table})/Attributes`, doc: `${WEBAPI}/query-metadata-web-api`, query: ['$select'], response: ['LogicalName', 'AttributeType', 'IsCustomAttribute', 'IsValidForRead', 'DisplayName'] },
    { method: 'GET', path: `${API}/EntityDefinitions(LogicalName={table})/Attributes(LogicalName={column})/Microsoft.Dynamics.CRM.PicklistAttributeMetadata`, doc: `${WEBAPI}/query-metadata-web-api`, query: ['$select', '$expand'], response: ['LogicalName', 'OptionSet'] },
    // Which table an engagement lives in, for an update.
    { method: 'GET', path: `${API}/activitypointers({id})`, doc: entity('activitypointer'), query: ['$select'], response: ['activitytypecode'] },
    { method: 'POST', path: `${API}/$batch`, doc: `${WEBAPI}/execute-batch-operations-using-web-api`, body: 'raw' },
    ...table('contact', 'contacts',
      ['contactid', 'firstname', 'lastname', ...emails, 'telephone1', 'telephone2', 'telephone3', 'mobilephone', 'fax', ...address(1), ...address(2), '_parentcustomerid_value', '_ownerid_value', ...stamps],
      ['firstname', 'lastname', ...emails, 'telephone1', 'telephone2', 'telephone3', 'mobilephone', 'fax', ...address(1), ...address(2), 'ownerid@odata.bind', 'parentcustomerid_account@odata.bind']),
    ...table('account', 'accounts',
      ['accountid', 'name', 'industrycode', 'numberofemployees', ...emails, 'telephone1', 'telephone2', 'fax', ...address(1), ...address(2), '_ownerid_value', ...stamps],
      ['name', 'industrycode', 'numberofemployees', ...emails, 'telephone1', 'telephone2', 'fax', ...address(1), ...address(2), 'ownerid@odata.bind']),
    ...table('opportunity', 'opportunities',
      ['opportunityid', 'name', 'description', 'estimatedvalue', '_transactioncurrencyid_value', 'salesstage', 'estimatedclosedate', 'statecode', '_parentaccountid_value', '_parentcontactid_value', '_ownerid_value', ...stamps],
      ['name', 'description', 'estimatedvalue', 'transactioncurrencyid@odata.bind', 'salesstage', 'estimatedclosedate', 'ownerid@odata.bind', 'parentaccountid@odata.bind', 'parentcontactid@odata.bind']),
    ...table('annotation', 'annotations',
      ['annotationid', 'subject', 'notetext', '_objectid_value', '_ownerid_value', ...stamps],
      ['notetext', 'ownerid@odata.bind', 'objectid_opportunity@odata.bind', 'objectid_contact@odata.bind', 'objectid_account@odata.bind']),
    ...table('task', 'tasks',
      ['activityid', 'subject', 'description', 'scheduledend', 'actualend', 'statecode', 'statuscode', '_regardingobjectid_value', '_ownerid_value', ...stamps],
      ['subject', 'description', 'scheduledend', 'actualend', 'statecode', 'statuscode', 'ownerid@odata.bind', ...regarding('task')]),
    ...table('phonecall', 'phonecalls',
      ['activityid', 'subject', 'description', 'directioncode', 'scheduledstart', 'scheduledend', 'actualdurationminutes', '_regardingobjectid_value', '_ownerid_value', ...stamps],
      ['subject', 'description', 'directioncode', 'scheduledstart', 'scheduledend', 'ownerid@odata.bind', ...regarding('phonecall')]),
    ...table('appointment', 'appointments',
      ['activityid', 'subject', 'description', 'scheduledstart', 'scheduledend', 'location', '_regardingobjectid_value', '_ownerid_value', ...stamps],
      ['subject', 'description', 'scheduledstart', 'scheduledend', 'ownerid@odata.bind', ...regarding('appointment')]),
  ],
};
