import type { UnifiedRecord } from '../types';
import type { PdStage } from './types';
import { asRecord, nonEmpty, toDate } from './util';

/**
 * Pipedrive stage (API v2) → crm.stage. Pipelines are no unified object: `pipeline_id` is Pipedrive's own
 * pipeline id and `pipeline_name` its name.
 */
export function unifyStage(s: PdStage, pipelineNames: Map<number, string>): UnifiedRecord {
  return {
    objectType: 'crm.stage',
    remoteId: String(s.id),
    data: {
      name: nonEmpty(s.name),
      pipeline_id: s.pipeline_id === null || s.pipeline_id === undefined ? null : String(s.pipeline_id),
      pipeline_name: s.pipeline_id === null || s.pipeline_id === undefined ? null : (pipelineNames.get(s.pipeline_id) ?? null),
    },
    remoteData: asRecord(s),
    remoteCreatedAt: toDate(s.add_time),
    remoteUpdatedAt: toDate(s.update_time),
    ...(s.is_deleted === true ? { deleted: true } : {}),
  };
}
