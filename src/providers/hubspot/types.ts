/**
 * HubSpot CRM API shapes (CRM objects v3, associations v4, owners v3, pipelines v3, properties v3), as
 * far as the adapter reads them. Every property value is a string (or null): numbers and dates too.
 */

/** The CRM object types the adapter uses, by their API name. */
export type HsType = 'contacts' | 'companies' | 'deals' | 'notes' | 'tasks' | 'calls' | 'meetings' | 'emails';

export type HsProperties = Record<string, string | null | undefined>;

/** `associations` of a v3 object read: `{companies: {results: [{id, type: 'contact_to_company'}]}}`. */
export type HsV3Associations = Record<string, { results?: { id: string | number; type?: string }[] } | undefined>;

export interface HsObject {
  id: string;
  properties: HsProperties;
  createdAt?: string;
  updatedAt?: string;
  archived?: boolean;
  archivedAt?: string;
  associations?: HsV3Associations;
  /** Echoed by batch/create in multi-status mode. */
  objectWriteTraceId?: string;
  [extra: string]: unknown;
}

export interface HsPaging {
  next?: { after?: string; link?: string };
}

export interface HsListPage {
  results?: HsObject[];
  paging?: HsPaging;
}

export interface HsSearchPage {
  total?: number;
  results?: HsObject[];
  paging?: HsPaging;
}

/** One error of a batch answer (207). */
export interface HsBatchError {
  status?: string;
  category?: string;
  subCategory?: string;
  message?: string;
  context?: Record<string, string[] | undefined>;
  errors?: { message?: string }[];
}

export interface HsBatchResponse<T> {
  status?: string;
  results?: T[];
  numErrors?: number;
  errors?: HsBatchError[];
}

/** v4 association target: `{toObjectId, associationTypes: [{category, typeId, label}]}`. */
export interface HsV4Target {
  toObjectId: number | string;
  associationTypes?: { category?: string; typeId?: number; label?: string | null }[];
}

export interface HsV4BatchResult {
  from: { id: string | number };
  to?: HsV4Target[];
  /** More targets of this object: ask again with `{id, after}`. */
  paging?: { next?: { after?: string } };
}

export interface HsOwner {
  id: string;
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  userId?: number | null;
  createdAt?: string;
  updatedAt?: string;
  archived?: boolean;
  teams?: unknown[];
  [extra: string]: unknown;
}

export interface HsPipelineStage {
  id: string;
  label?: string;
  displayOrder?: number;
  metadata?: Record<string, string>;
  createdAt?: string;
  updatedAt?: string;
  archived?: boolean;
  [extra: string]: unknown;
}

export interface HsPipeline {
  id: string;
  label?: string;
  displayOrder?: number;
  archived?: boolean;
  stages?: HsPipelineStage[];
  createdAt?: string;
  updatedAt?: string;
}

export interface HsPropertyDefinition {
  name: string;
  label?: string;
  type?: string;
  fieldType?: string;
  groupName?: string;
  description?: string;
  hidden?: boolean;
  archived?: boolean;
  calculated?: boolean;
  hubspotDefined?: boolean;
  modificationMetadata?: { readOnlyValue?: boolean; readOnlyDefinition?: boolean; archivable?: boolean };
  options?: { label?: string; value: string }[];
}

/** An association to write: target type and id, and HubSpot's association type ids. */
export interface HsAssociationWrite {
  toType: HsType;
  toId: string;
  typeIds: number[];
}

/** Associations of one object, read from v3 or v4, normalised: per target type, the ids in order, primary ones flagged. */
export type AssociationMap = Partial<Record<HsType, { id: string; primary: boolean }[]>>;
