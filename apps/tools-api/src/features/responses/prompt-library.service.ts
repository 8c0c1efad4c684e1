// The story-prompt library (spec 002 story-prompt extras): a session saves prompts for later, and
// everyone reads the published collections. The SQL is in prompt-library.repository.ts.
import type postgres from 'postgres';
import type { ToolRoute } from '@story/db';
import { isUuid } from '@story/http';
import type { ToolsCaller } from '../../shared/caller';
import { toIso } from '../../shared/dates';
import { toolsError } from '../../shared/errors';
import { canSee } from '../../shared/visibility';
import { findLiveContent } from '../../shared/content.repository';
import { createPromptLibraryRepository, type CollectionRow } from './prompt-library.repository';

export interface SavedPromptView {
  id: string;
  promptId: string;
  shareCode: string;
  title: string;
  prompt: string | null;
  notes: string | null;
  savedAt: string;
}

export interface CollectionView {
  id: string;
  title: string;
  description: string | null;
  slug: string;
  isFeatured: boolean;
  seoTitle: string | null;
  seoDescription: string | null;
  keywords: string[];
  itemCount: number;
  prompts: CollectionRow['prompts'];
  createdAt: string;
  updatedAt: string;
}

const toCollection = (r: CollectionRow): CollectionView => ({
  id: r.id,
  title: r.title,
  description: r.description,
  slug: r.slug,
  isFeatured: r.is_featured,
  seoTitle: r.seo_title,
  seoDescription: r.seo_description,
  keywords: r.keywords ?? [],
  itemCount: r.item_count,
  prompts: r.prompts,
  createdAt: toIso(r.created_at),
  updatedAt: toIso(r.updated_at),
});

export function createPromptLibraryService({ sql }: { sql: postgres.Sql }) {
  const repo = createPromptLibraryRepository(sql);

  return {
    /** Save a story prompt for later; saving it again keeps one row (and updates the notes when sent). */
    async savePrompt(input: { promptId: string; sessionId?: string; notes?: string }, caller: ToolsCaller): Promise<{ saved: SavedPromptView; created: boolean }> {
      if (input.sessionId !== undefined && input.sessionId !== caller.sessionId) throw toolsError.accessDenied('sessionId does not match X-Session-ID');
      const tool: ToolRoute = 'story-prompts';
      const prompt = await findLiveContent(sql, tool, input.promptId);
      if (!prompt || !canSee(prompt, caller)) throw toolsError.notFound('Story prompt');
      const row = await repo.upsertSaved(tool, prompt.id, caller, input.notes ?? null);
      return {
        created: row.inserted,
        saved: {
          id: row.id,
          promptId: prompt.id,
          shareCode: prompt.share_code,
          title: prompt.title ?? '',
          prompt: typeof prompt.content['prompt'] === 'string' ? prompt.content['prompt'] : null,
          notes: row.notes,
          savedAt: toIso(row.created_at),
        },
      };
    },

    async unsavePrompt(promptId: string, caller: ToolsCaller): Promise<boolean> {
      if (!isUuid(promptId)) return false;
      return repo.deleteSaved(promptId, caller);
    },

    /** The session's (and account's) saved prompts that still exist, newest first. */
    async savedPrompts(caller: ToolsCaller, page: number, limit: number): Promise<{ items: SavedPromptView[]; total: number }> {
      const { rows, total } = await repo.listSaved(caller, limit, (page - 1) * limit);
      return {
        items: rows.map((r) => ({ id: r.id, promptId: r.content_id, shareCode: r.share_code, title: r.title ?? '', prompt: r.prompt, notes: r.notes, savedAt: toIso(r.created_at) })),
        total,
      };
    },

    /** Published story-prompt collections, featured first, each with its first prompts (public, live ones only). */
    async collections(page: number, limit: number, previewSize = 5): Promise<{ items: CollectionView[]; total: number }> {
      const { rows, total } = await repo.listCollections(limit, (page - 1) * limit, previewSize);
      return { items: rows.map(toCollection), total };
    },

    async collection(slug: string): Promise<CollectionView> {
      const row = await repo.findCollection(slug);
      if (!row) throw toolsError.notFound('Collection');
      return toCollection(row);
    },
  };
}

export type PromptLibraryService = ReturnType<typeof createPromptLibraryService>;
