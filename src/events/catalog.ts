import { CRM_OBJECTS } from '../core/unified/crm';
import { TICKETING_OBJECTS } from '../core/unified/ticketing';

/** Events about connections, syncs and webhook endpoints. */
export const CONTROL_EVENT_TYPES = [
  'connection.created',
  'connection.reauthorized',
  'connection.needs_reauth',
  'connection.deleted',
  'sync.completed',
  'sync.failed',
  'webhook_endpoint.disabled',
] as const;

/** `<vertical>.<object>.created|updated|deleted`, for every unified object. */
export const RECORD_EVENT_TYPES = [...TICKETING_OBJECTS, ...CRM_OBJECTS].flatMap((o) => [`${o}.created`, `${o}.updated`, `${o}.deleted`]);

export const EVENT_TYPES: readonly string[] = [...CONTROL_EVENT_TYPES, ...RECORD_EVENT_TYPES];

const RECORD_EVENT = /^(ticketing|crm)\.[a-z_]+\.(created|updated|deleted)$/;
export const isRecordEvent = (type: string) => RECORD_EVENT.test(type);
