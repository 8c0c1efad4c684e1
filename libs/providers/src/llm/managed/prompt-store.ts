// Admin-managed prompts (ai_prompt_templates, spec 001 "AI prompt templates with version history"): the
// code asks for a prompt by key and gets the ACTIVE version's text, or its own built-in prompt when no
// active template with that key exists (or the database cannot answer), so a missing row never breaks a call.
import { and, eq } from 'drizzle-orm';
import { aiPromptTemplates, aiPromptTemplateVersions, type Database } from '@story/db';
import { createTtlCache } from './ttl-cache';

export interface ResolvedPrompt {
  text: string;
  /** The template version in use, null for the built-in prompt. */
  version: number | null;
  source: 'template' | 'builtin';
}

export interface PromptStore {
  /** The active text of `key`, else `builtin`. */
  resolve(key: string, builtin: string): Promise<ResolvedPrompt>;
  /** Forget cached prompts (after an admin change in this process). */
  clear(): void;
}

/** Keys of the prompts the code loads, with what each is for (the admin lists them). */
export const MANAGED_PROMPT_KEYS = {
  'story_conversion.writer': 'core-api story conversion: the system prompt that writes the story from a transcript',
  'story_conversion.readiness': 'core-api story conversion: the AI readiness assessment',
  'conversation.interviewer': 'core-api conversations: the AI interviewer that asks the next question',
  'conversation.summary': 'core-api conversations: the title and summary of a conversation',
} as const;

export const DEFAULT_PROMPT_TTL_MS = 30_000;

export function createPromptStore(db: Database, options: { ttlMs?: number; now?: () => number } = {}): PromptStore {
  const cache = createTtlCache<{ text: string; version: number } | null>(options.ttlMs ?? DEFAULT_PROMPT_TTL_MS, options.now);
  const load = async (key: string) => {
    const [row] = await db
      .select({ text: aiPromptTemplateVersions.content, version: aiPromptTemplateVersions.version })
      .from(aiPromptTemplates)
      .innerJoin(aiPromptTemplateVersions, and(eq(aiPromptTemplateVersions.templateId, aiPromptTemplates.id), eq(aiPromptTemplateVersions.version, aiPromptTemplates.currentVersion)))
      .where(and(eq(aiPromptTemplates.key, key), eq(aiPromptTemplates.isActive, true)));
    return row ?? null;
  };
  return {
    async resolve(key, builtin) {
      try {
        const found = await cache.get(key, () => load(key));
        if (found && found.text.trim()) return { text: found.text, version: found.version, source: 'template' };
      } catch {
        // The database did not answer: the built-in prompt keeps the feature working.
      }
      return { text: builtin, version: null, source: 'builtin' };
    },
    clear: () => cache.clear(),
  };
}

/** The store used when no database is at hand: always the built-in prompt. */
export const builtinPromptStore: PromptStore = {
  resolve: async (_key, builtin) => ({ text: builtin, version: null, source: 'builtin' }),
  clear: () => undefined,
};
