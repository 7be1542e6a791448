/**
 * The unified CRM objects HubSpot holds, each with its HubSpot object type(s), the properties and
 * associations read, and its mappers. Engagements are three HubSpot types: calls, meetings and emails.
 */
import type { IdOf } from '../../core/unified/ids';
import type { CrmWritable } from '../../core/unified/crm';
import type { CrmWrite, UnifiedRecord } from '../types';
import { COMPANY_PROPERTIES, desunifyCompany, unifyCompany, type CompanyWrite } from './company.mapper';
import { CONTACT_PROPERTIES, desunifyContact, unifyContact, type ContactWrite } from './contact.mapper';
import type { WriteContext } from './contact-info';
import { DEAL_PROPERTIES, desunifyDeal, unifyDeal, type DealWrite } from './deal.mapper';
import {
  ENGAGEMENT_PROPERTIES,
  ENGAGEMENT_TYPES,
  desunifyEngagement,
  unifyEngagement,
  type EngagementHsType,
  type EngagementWrite,
} from './engagement.mapper';
import { NOTE_PROPERTIES, desunifyNote, unifyNote, type NoteWrite } from './note.mapper';
import type { Desunified } from './record';
import { TASK_PROPERTIES, desunifyTask, unifyTask, type TaskWrite } from './task.mapper';
import type { AssociationMap, HsObject, HsType } from './types';

export interface ObjectSpec {
  objectType: CrmWritable;
  hsTypes: HsType[];
  /** Properties read besides the account's custom properties. */
  properties(hsType: HsType): string[];
  /** Association targets read with the object. */
  associations(hsType: HsType): HsType[];
  unify(o: HsObject, hsType: HsType, assoc: AssociationMap, ids: IdOf): UnifiedRecord;
  desunify(input: CrmWrite, hsType: HsType, ctx: WriteContext & { current?: HsObject }): Desunified;
}

/** The property holding the last modification time (contacts differ from every other type). */
export const modifiedProperty = (hsType: HsType) => (hsType === 'contacts' ? 'lastmodifieddate' : 'hs_lastmodifieddate');

const ACTIVITY_TARGETS: HsType[] = ['contacts', 'companies', 'deals'];

export const OBJECT_SPECS: Record<CrmWritable, ObjectSpec> = {
  'crm.contact': {
    objectType: 'crm.contact',
    hsTypes: ['contacts'],
    properties: () => CONTACT_PROPERTIES,
    associations: () => ['companies'],
    unify: (o, _t, assoc, ids) => unifyContact(o, assoc, ids),
    desunify: (input, _t, ctx) => desunifyContact(input as ContactWrite, ctx),
  },
  'crm.company': {
    objectType: 'crm.company',
    hsTypes: ['companies'],
    properties: () => COMPANY_PROPERTIES,
    associations: () => [],
    unify: (o, _t, _assoc, ids) => unifyCompany(o, ids),
    desunify: (input, _t, ctx) => desunifyCompany(input as CompanyWrite, ctx),
  },
  'crm.deal': {
    objectType: 'crm.deal',
    hsTypes: ['deals'],
    properties: () => DEAL_PROPERTIES,
    associations: () => ['companies', 'contacts'],
    unify: (o, _t, assoc, ids) => unifyDeal(o, assoc, ids),
    desunify: (input) => desunifyDeal(input as DealWrite),
  },
  'crm.note': {
    objectType: 'crm.note',
    hsTypes: ['notes'],
    properties: () => NOTE_PROPERTIES,
    associations: () => ACTIVITY_TARGETS,
    unify: (o, _t, assoc, ids) => unifyNote(o, assoc, ids),
    desunify: (input, _t, ctx) => desunifyNote(input as NoteWrite, ctx),
  },
  'crm.task': {
    objectType: 'crm.task',
    hsTypes: ['tasks'],
    properties: () => TASK_PROPERTIES,
    associations: () => ACTIVITY_TARGETS,
    unify: (o, _t, assoc, ids) => unifyTask(o, assoc, ids),
    desunify: (input, _t, ctx) => desunifyTask(input as TaskWrite, ctx),
  },
  'crm.engagement': {
    objectType: 'crm.engagement',
    hsTypes: ['calls', 'meetings', 'emails'],
    properties: (t) => ENGAGEMENT_PROPERTIES[t as EngagementHsType],
    associations: () => ['contacts', 'companies'],
    unify: (o, t, assoc, ids) => unifyEngagement(o, t as EngagementHsType, assoc, ids),
    desunify: (input, t, ctx) => desunifyEngagement(input as EngagementWrite, t as EngagementHsType, ctx),
  },
};

export function specOf(objectType: string): ObjectSpec | undefined {
  return (OBJECT_SPECS as Record<string, ObjectSpec>)[objectType];
}

/** The HubSpot type an engagement input is written to. */
export function engagementHsType(type: unknown): EngagementHsType | undefined {
  return typeof type === 'string' ? ENGAGEMENT_TYPES[type as keyof typeof ENGAGEMENT_TYPES] : undefined;
}
