// The SQL of shared memories and what hangs off them (CONVENTIONS 7): memory views with their author's
// name, the caller's own images as memory media, the group's media wall, and story prompts.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { familyMemories, images, one, type DbOrTx, type FamilyMemoryMedia } from '@story/db';

export type MemoryRow = {
  id: string;
  family_group_id: string;
  created_by: string | null;
  author_name: string | null;
  title: string;
  content: string | null;
  memory_date: string | null;
  tags: string[];
  media: FamilyMemoryMedia[];
  created_at: Date | string;
  updated_at: Date | string;
};

export interface MemoryFields {
  title?: string;
  content?: string | null;
  memoryDate?: string | null;
  tags?: string[];
  media?: FamilyMemoryMedia[];
}

export type MediaRow = {
  id: string;
  source: string;
  memory_id: string | null;
  image_id: string | null;
  mime_type: string;
  title: string | null;
  caption: string | null;
  added_by: string | null;
  created_at: Date | string;
};

export type PromptRow = {
  id: string;
  prompt: string;
  category: string | null;
  relationship_type: string | null;
};

const MEMORY_COLUMNS = sql`f.id, f.family_group_id, f.created_by, coalesce(nullif(p.display_name, ''), p.full_name) as author_name, f.title, f.content,
               f.memory_date::text as memory_date, f.tags, f.media, f.created_at, f.updated_at`;

export function createFamilyMemoriesRepository(db: DbOrTx) {
  return {
    async findInGroup(groupId: string, memoryId: string, tx: DbOrTx = db): Promise<MemoryRow | undefined> {
      const [m] = await tx.execute<MemoryRow>(sql`
        select ${MEMORY_COLUMNS}
          from family_memories f left join profiles p on p.id = f.created_by
         where f.family_group_id = ${groupId} and f.id = ${memoryId}`);
      return m;
    },

    /** Newest first; (created_at, id) keeps pages stable when two memories share a timestamp. */
    async listInGroup(groupId: string, limit: number, offset: number, tx: DbOrTx = db): Promise<MemoryRow[]> {
      return tx.execute<MemoryRow>(sql`
        select ${MEMORY_COLUMNS}
          from family_memories f left join profiles p on p.id = f.created_by
         where f.family_group_id = ${groupId}
         order by f.created_at desc, f.id desc
         limit ${limit} offset ${offset}`);
    },

    async insert(groupId: string, createdBy: string, input: MemoryFields & { title: string; media: FamilyMemoryMedia[] }, tx: DbOrTx = db): Promise<string> {
      const row = one(
        await tx
          .insert(familyMemories)
          .values({ familyGroupId: groupId, createdBy, title: input.title, content: input.content ?? null, memoryDate: input.memoryDate ?? null, tags: input.tags ?? [], media: input.media })
          .returning({ id: familyMemories.id }),
      );
      return row.id;
    },

    /** Sets the fields given (undefined leaves a field as it is). */
    async update(memoryId: string, input: MemoryFields, tx: DbOrTx = db): Promise<void> {
      await tx
        .update(familyMemories)
        .set({
          ...(input.title !== undefined ? { title: input.title } : {}),
          ...(input.content !== undefined ? { content: input.content } : {}),
          ...(input.memoryDate !== undefined ? { memoryDate: input.memoryDate } : {}),
          ...(input.tags !== undefined ? { tags: input.tags } : {}),
          ...(input.media !== undefined ? { media: input.media } : {}),
          updatedAt: sql`now()`,
        })
        .where(eq(familyMemories.id, memoryId));
    },

    async delete(memoryId: string, tx: DbOrTx = db): Promise<void> {
      await tx.delete(familyMemories).where(eq(familyMemories.id, memoryId));
    },

    /** Of the given images, those the user owns. */
    async imagesOwnedBy(userId: string, imageIds: string[], tx: DbOrTx = db): Promise<{ id: string; storageKey: string; mimeType: string }[]> {
      return tx.select({ id: images.id, storageKey: images.storageKey, mimeType: images.mimeType }).from(images).where(and(inArray(images.id, imageIds), eq(images.userId, userId)));
    },

    /** Photos attached to the group's memories and the photos of its active members, newest first. */
    async listMedia(groupId: string, limit: number, tx: DbOrTx = db): Promise<MediaRow[]> {
      // A memory's photos are items of its media array: one row each, with a stable id "<memory>:<position>".
      return tx.execute<MediaRow>(sql`
        (select f.id || ':' || x.ord as id, 'memory' as source, f.id as memory_id, (x.item->>'imageId')::uuid as image_id,
                x.item->>'mimeType' as mime_type, f.title, x.item->>'caption' as caption, f.created_by as added_by, f.created_at
           from family_memories f cross join lateral jsonb_array_elements(f.media) with ordinality as x(item, ord)
          where f.family_group_id = ${groupId})
        union all
        (select i.id::text, 'image', null, i.id, i.mime_type, i.title, i.caption, i.user_id, i.created_at
           from images i
           join family_members m on m.user_id = i.user_id and m.family_group_id = ${groupId} and m.status = 'active')
        order by created_at desc, id desc
        limit ${limit}`);
    },

    /** Published library prompts suited to the family's relationships (its members' and its campaigns'), or to anyone. */
    async publishedPrompts(groupId: string, limit: number, tx: DbOrTx = db): Promise<PromptRow[]> {
      return tx.execute<PromptRow>(sql`
        select l.id, l.prompt, l.category, l.relationship_type
          from story_prompt_library l
         where l.status = 'published'
           and (l.relationship_type is null
                or l.relationship_type in (select m.relationship from family_members m where m.family_group_id = ${groupId} and m.status = 'active' and m.relationship is not null)
                or l.relationship_type in (select c.relationship from campaigns c join family_members m on m.user_id = c.user_id and m.family_group_id = ${groupId} and m.status = 'active'))
         order by l.usage_count desc, l.created_at desc
         limit ${limit}`);
    },
  };
}

export type FamilyMemoriesRepository = ReturnType<typeof createFamilyMemoriesRepository>;
