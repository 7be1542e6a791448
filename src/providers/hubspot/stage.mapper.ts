import type { UnifiedRecord } from '../types';
import type { HsPipeline, HsPipelineStage } from './types';
import { hubspotDate } from './util';

/** A deal pipeline stage → crm.stage (remote id: the stage id, which deals carry in `dealstage`). */
export function unifyStage(stage: HsPipelineStage, pipeline: HsPipeline): UnifiedRecord {
  return {
    objectType: 'crm.stage',
    remoteId: String(stage.id),
    data: { name: stage.label ?? null, pipeline_id: String(pipeline.id), pipeline_name: pipeline.label ?? null },
    remoteData: stage as Record<string, unknown>,
    remoteCreatedAt: hubspotDate(stage.createdAt),
    remoteUpdatedAt: hubspotDate(stage.updatedAt),
    ...(stage.archived === true || pipeline.archived === true ? { deleted: true } : {}),
  };
}
