import { and, eq } from 'drizzle-orm';
import type { Database } from './database';
import { fieldAttributes, fieldMappings } from './schema';
import { pageByCreation, type PageRequest } from './pagination';

export type AttributeRow = typeof fieldAttributes.$inferSelect;
export type MappingRow = typeof fieldMappings.$inferSelect;

/** An active mapping with its attribute, as writes and reads need it. */
export interface ResolvedMapping {
  name: string;
  dataType: string;
  objectTypeOwner: string;
  sourceCustomFieldId: string;
}

export class FieldMappingRepo {
  constructor(private readonly db: Database) {}

  async insertAttribute(values: typeof fieldAttributes.$inferInsert): Promise<AttributeRow> {
    const [row] = await this.db.insert(fieldAttributes).values(values).returning();
    return row!;
  }

  async findAttribute(projectId: string, id: string): Promise<AttributeRow | undefined> {
    const [row] = await this.db
      .select()
      .from(fieldAttributes)
      .where(and(eq(fieldAttributes.projectId, projectId), eq(fieldAttributes.id, id)));
    return row;
  }

  listAttributes(projectId: string, page: PageRequest, filter: { objectTypeOwner?: string }) {
    return pageByCreation<AttributeRow>(
      this.db,
      fieldAttributes,
      page,
      eq(fieldAttributes.projectId, projectId),
      filter.objectTypeOwner ? eq(fieldAttributes.objectTypeOwner, filter.objectTypeOwner) : undefined,
    );
  }

  async deleteAttribute(projectId: string, id: string): Promise<boolean> {
    const rows = await this.db
      .delete(fieldAttributes)
      .where(and(eq(fieldAttributes.projectId, projectId), eq(fieldAttributes.id, id)))
      .returning({ id: fieldAttributes.id });
    return rows.length > 0;
  }

  async insertMapping(values: typeof fieldMappings.$inferInsert): Promise<MappingRow> {
    const [row] = await this.db.insert(fieldMappings).values(values).returning();
    return row!;
  }

  listMappings(projectId: string, page: PageRequest, filter: { attributeId?: string; linkedUserId?: string; provider?: string }) {
    return pageByCreation<MappingRow>(
      this.db,
      fieldMappings,
      page,
      eq(fieldMappings.projectId, projectId),
      filter.attributeId ? eq(fieldMappings.attributeId, filter.attributeId) : undefined,
      filter.linkedUserId ? eq(fieldMappings.linkedUserId, filter.linkedUserId) : undefined,
      filter.provider ? eq(fieldMappings.provider, filter.provider) : undefined,
    );
  }

  async deleteMapping(projectId: string, id: string): Promise<boolean> {
    const rows = await this.db
      .delete(fieldMappings)
      .where(and(eq(fieldMappings.projectId, projectId), eq(fieldMappings.id, id)))
      .returning({ id: fieldMappings.id });
    return rows.length > 0;
  }

  /** Every mapping of one linked user and provider, with its attribute: one query. */
  async mappingsFor(projectId: string, linkedUserId: string, provider: string): Promise<ResolvedMapping[]> {
    return this.db
      .select({
        name: fieldAttributes.name,
        dataType: fieldAttributes.dataType,
        objectTypeOwner: fieldAttributes.objectTypeOwner,
        sourceCustomFieldId: fieldMappings.sourceCustomFieldId,
      })
      .from(fieldMappings)
      .innerJoin(fieldAttributes, eq(fieldAttributes.id, fieldMappings.attributeId))
      .where(and(eq(fieldMappings.projectId, projectId), eq(fieldMappings.linkedUserId, linkedUserId), eq(fieldMappings.provider, provider)));
  }
}
