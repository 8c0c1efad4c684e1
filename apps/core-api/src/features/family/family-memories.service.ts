// Shared memories of a group, the group's media wall and its story prompts.
//   read ...................................... every active member (view_stories)
//   add a memory .............................. contributor and owner (upload_photos)
//   edit or delete a memory ................... its author (edit_own_stories) or the owner (edit_stories)
import type { Database, DbOrTx, FamilyMemoryMedia } from '@story/db';
import { badRequest, notFound } from '@story/http';
import type { AccessPolicy } from '../access/access.policy';
import { createTimelineRepository } from '../timeline/timeline.repository';
import { recordEvent, toIso } from '../timeline/timeline.service';
import type { FamilyMemoriesRepository, MemoryRow } from './family-memories.repository';

export interface MemoryView {
  id: string;
  familyGroupId: string;
  createdBy: string | null;
  authorName: string | null;
  title: string;
  content: string | null;
  memoryDate: string | null;
  tags: string[];
  media: { imageId: string | null; mimeType: string; caption: string | null }[];
  createdAt: string;
  updatedAt: string;
}

type MediaInput = { imageId: string; caption?: string }[];
export interface MemoryInput {
  title?: string;
  content?: string | null;
  memoryDate?: string | null;
  tags?: string[];
  media?: MediaInput;
}

/** Offered when the prompt library has nothing published yet, so a new family is never shown an empty list. */
const STARTER_PROMPTS: readonly { prompt: string; category: string }[] = [
  { prompt: 'What is your earliest memory?', category: 'childhood' },
  { prompt: 'Describe the house you grew up in.', category: 'childhood' },
  { prompt: 'How did you meet the love of your life?', category: 'love' },
  { prompt: 'What was your first job, and what did it teach you?', category: 'work' },
  { prompt: 'Which family tradition do you hope never disappears?', category: 'family' },
  { prompt: 'What is the bravest thing you have ever done?', category: 'life_lessons' },
  { prompt: 'Tell the story behind a photograph you treasure.', category: 'family' },
  { prompt: 'What advice would you give your younger self?', category: 'life_lessons' },
];

const toMemory = (m: MemoryRow): MemoryView => ({
  id: m.id,
  familyGroupId: m.family_group_id,
  createdBy: m.created_by,
  authorName: m.author_name,
  title: m.title,
  content: m.content,
  memoryDate: m.memory_date,
  tags: m.tags,
  media: (m.media ?? []).map((x) => ({ imageId: x.imageId ?? null, mimeType: x.mimeType, caption: x.caption ?? null })),
  createdAt: toIso(m.created_at),
  updatedAt: toIso(m.updated_at),
});

export interface FamilyMemoriesDeps {
  db: Database;
  memories: FamilyMemoriesRepository;
  access: Pick<AccessPolicy, 'requireGroup'>;
}

export function createFamilyMemoriesService({ db, memories, access }: FamilyMemoriesDeps) {
  const timeline = createTimelineRepository(db);

  async function memoryView(groupId: string, memoryId: string): Promise<MemoryView> {
    const m = await memories.findInGroup(groupId, memoryId);
    if (!m) throw notFound('Memory');
    return toMemory(m);
  }

  /** The caller's own images, turned into memory media; someone else's image id is a 400, never attached. */
  async function ownMedia(tx: DbOrTx, callerId: string, items: MediaInput): Promise<FamilyMemoryMedia[]> {
    if (!items.length) return [];
    const rows = await memories.imagesOwnedBy(callerId, [...new Set(items.map((i) => i.imageId))], tx);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return items.map((i, n) => {
      const img = byId.get(i.imageId);
      if (!img) throw badRequest(`Invalid media.${n}.imageId: not one of your images`, { field: `media.${n}.imageId` });
      return { imageId: img.id, storageKey: img.storageKey, mimeType: img.mimeType, ...(i.caption ? { caption: i.caption } : {}) };
    });
  }

  async function getMemory(callerId: string, groupId: string, memoryId: string): Promise<MemoryView> {
    await access.requireGroup(callerId, groupId, 'view_stories');
    return memoryView(groupId, memoryId);
  }

  /** Editing and deleting: the author (edit_own_stories) or the owner (edit_stories). */
  async function requireEditable(callerId: string, groupId: string, memoryId: string): Promise<void> {
    const current = await getMemory(callerId, groupId, memoryId);
    await access.requireGroup(callerId, groupId, 'edit_stories', { isAuthor: current.createdBy === callerId });
  }

  return {
    async listMemories(callerId: string, groupId: string, limit: number, offset: number): Promise<MemoryView[]> {
      await access.requireGroup(callerId, groupId, 'view_stories');
      return (await memories.listInGroup(groupId, limit, offset)).map(toMemory);
    },

    getMemory,

    async addMemory(callerId: string, groupId: string, input: MemoryInput & { title: string }): Promise<MemoryView> {
      await access.requireGroup(callerId, groupId, 'upload_photos');
      const id = await db.transaction(async (tx) => {
        const media = await ownMedia(tx, callerId, input.media ?? []);
        const memoryId = await memories.insert(groupId, callerId, { ...input, media }, tx);
        await recordEvent(tx, { familyGroupId: groupId, actorId: callerId, eventType: 'memory_added', subjectType: 'family_memory', subjectId: memoryId, title: input.title });
        return memoryId;
      });
      return memoryView(groupId, id);
    },

    async updateMemory(callerId: string, groupId: string, memoryId: string, input: MemoryInput): Promise<MemoryView> {
      await requireEditable(callerId, groupId, memoryId);
      await db.transaction(async (tx) => {
        const media = input.media !== undefined ? await ownMedia(tx, callerId, input.media) : undefined;
        await memories.update(memoryId, { ...input, media }, tx);
      });
      return memoryView(groupId, memoryId);
    },

    async deleteMemory(callerId: string, groupId: string, memoryId: string): Promise<{ id: string }> {
      await requireEditable(callerId, groupId, memoryId);
      await db.transaction(async (tx) => {
        await memories.delete(memoryId, tx);
        // Events point at subjects without a foreign key: drop the memory's own events with it.
        await timeline.deleteEventsOfSubject('family_memory', memoryId, tx);
      });
      return { id: memoryId };
    },

    /** Photos attached to the group's memories and the photos of its active members, newest first. */
    async listMedia(callerId: string, groupId: string, limit: number) {
      await access.requireGroup(callerId, groupId, 'view_stories');
      const rows = await memories.listMedia(groupId, limit);
      return rows.map((r) => ({ id: r.id, source: r.source, memoryId: r.memory_id, imageId: r.image_id, mimeType: r.mime_type, title: r.title, caption: r.caption, addedBy: r.added_by, createdAt: toIso(r.created_at) }));
    },

    /** Published library prompts suited to the family's relationships (or to anyone); a starter set when none are published. */
    async storyPrompts(callerId: string, groupId: string, limit: number) {
      await access.requireGroup(callerId, groupId, 'view_stories');
      const rows = await memories.publishedPrompts(groupId, limit);
      if (rows.length) return { prompts: rows.map((r) => ({ id: r.id, prompt: r.prompt, category: r.category, relationshipType: r.relationship_type, source: 'library' as const })) };
      return { prompts: STARTER_PROMPTS.slice(0, limit).map((p, n) => ({ id: `starter-${n + 1}`, prompt: p.prompt, category: p.category, relationshipType: null, source: 'starter' as const })) };
    },
  };
}
