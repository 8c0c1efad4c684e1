// Bodies and answers of /api/ai/* (spec 000 "AI helpers"). The spec names the bodies of grammar,
// grammar-analysis, content-analysis and content-refinement; the other four are this project's (README).
// Every answer says who produced it: `source` llm or offline, `model`, `aiGenerated`, `offline`.
import { z } from 'zod';

/** Longest text a helper takes: a long chapter. Beyond it: 400 naming the field. */
export const MAX_TEXT = 20_000;
export const MAX_TEMPLATE = 10_000;

// Not trimmed: grammar offsets index the text exactly as sent.
const text = (max = MAX_TEXT) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine((s) => s.trim().length > 0, 'must not be blank');
const userId = z.uuid().optional().describe('The caller’s own account id (optional); another account’s id is refused with 403.');

export const GRAMMAR_LEVELS = ['light', 'moderate', 'comprehensive'] as const;

export const grammarBody = z.object({
  text: text(),
  userId,
  userStyle: z
    .string()
    .max(200, 'must be at most 200 characters')
    .optional()
    .describe(
      'The writer’s style, any text (spec 000 gives no values). Where it names a level (light, moderate, comprehensive) that level is applied; otherwise the caller’s grammar setting suggestion_level, else moderate. The answer says which was applied (appliedStyle).',
    ),
});
export const grammarAnalysisBody = z.object({ text: text(), includeExplanations: z.boolean().default(false) });
export const contentAnalysisBody = z.object({
  prompt: text(),
  userId,
  sessionId: z.string().trim().min(1).max(200).optional().describe('A chat sessionId of the caller: that conversation’s storyteller turns are read with the prompt; an unknown one is ignored (sessionFound false).'),
  analysisDepth: z.enum(['basic', 'detailed']).default('basic'),
  maxRecommendations: z.number().int().min(1).max(20).default(5),
});
export const REFINEMENT_STYLES = ['formal', 'casual', 'narrative'] as const;
export const contentRefinementBody = z.object({ content: text(), style: z.enum(REFINEMENT_STYLES), preserveVoice: z.boolean().default(true) });
export const memoryPromptsBody = z.object({
  campaignId: z.uuid().optional().describe('Draw on this campaign’s stories and recordings and its storyteller’s relationship; default all of the caller’s.'),
  count: z.number().int().min(1).max(20).default(5),
  topic: z.string().trim().min(1).max(200).optional(),
});
export const storyConnectionsBody = z.object({
  storyIds: z.array(z.uuid()).min(2).max(200).optional().describe('Stories to compare (the caller’s); default the caller’s newest 200.'),
  minShared: z.number().int().min(1).max(10).default(1),
});
export const photoSuggestionsBody = z.object({
  storyId: z.uuid(),
  imageIds: z.array(z.uuid()).min(1).max(50).optional().describe('The caller’s images to place; default the newest 50 of the gallery.'),
});
export const templateRefinementBody = z.object({
  template: text(MAX_TEMPLATE),
  templateType: z.enum(['prompt', 'book']).default('prompt'),
});

const labelled = {
  success: z.literal(true),
  source: z.enum(['llm', 'offline']),
  offline: z.boolean(),
  aiGenerated: z.boolean(),
  model: z.string(),
  fallback: z.string().optional().describe('Why a configured model was not used (its call failed): the offline result stands in.'),
};

const correction = z.object({
  start: z.number().int(),
  end: z.number().int(),
  original: z.string(),
  suggestion: z.string(),
  type: z.string(),
  message: z.string(),
});
export const grammarAnswer = z.object({
  ...labelled,
  correctedText: z.string(),
  corrections: z.array(correction),
  level: z.enum(GRAMMAR_LEVELS),
  appliedStyle: z.object({
    level: z.enum(GRAMMAR_LEVELS).describe('The level the corrections were made at.'),
    from: z.enum(['userStyle', 'settings', 'default']).describe('userStyle: the sent style named it; settings: the caller’s suggestion_level; default: moderate.'),
    userStyle: z.string().optional().describe('The style as sent, when one was.'),
  }),
});

const issue = z.object({
  start: z.number().int(),
  end: z.number().int(),
  text: z.string(),
  type: z.string(),
  suggestions: z.array(z.string()),
  explanation: z.string().optional(),
});
const readability = z.object({ words: z.number().int(), sentences: z.number().int(), averageSentenceLength: z.number(), fleschReadingEase: z.number() });
export const grammarAnalysisAnswer = z.object({
  ...labelled,
  score: z.number().int().min(0).max(100),
  issues: z.array(issue),
  counts: z.record(z.string(), z.number().int()),
  readability,
});

const mentions = z.object({ people: z.array(z.string()), places: z.array(z.string()), years: z.array(z.string()) });
export const contentAnalysisAnswer = z.object({
  ...labelled,
  analysis: z.looseObject({ wordCount: z.number().int(), sentenceCount: z.number().int(), readingMinutes: z.number().int(), mentions, themes: z.array(z.string()) }),
  recommendations: z.array(z.string()),
  sessionId: z.string().optional(),
  sessionFound: z.boolean().optional().describe('With a sessionId: whether it named a conversation of the caller’s (read with the prompt); an unknown one is ignored.'),
});

const change = z.object({ type: z.string(), from: z.string(), to: z.string(), count: z.number().int() });
export const contentRefinementAnswer = z.object({ ...labelled, refinedContent: z.string(), style: z.enum(REFINEMENT_STYLES), changes: z.array(change) });

export const memoryPromptsAnswer = z.object({
  ...labelled,
  prompts: z.array(z.object({ prompt: z.string(), reason: z.string(), category: z.string() })),
  basedOn: z.object({ stories: z.number().int(), recordings: z.number().int(), relationship: z.string().nullable() }),
});

export const storyConnectionsAnswer = z.object({
  ...labelled,
  connections: z.array(
    z.object({
      storyIds: z.tuple([z.uuid(), z.uuid()]),
      titles: z.tuple([z.string(), z.string()]),
      shared: mentions,
      strength: z.number(),
      explanation: z.string(),
    }),
  ),
  storiesCompared: z.number().int(),
});

export const photoSuggestionsAnswer = z.object({
  ...labelled,
  storyId: z.uuid(),
  paragraphs: z.number().int(),
  suggestions: z.array(z.object({ imageId: z.uuid(), paragraphIndex: z.number().int(), score: z.number(), reasons: z.array(z.string()) })),
  unplaced: z.array(z.object({ imageId: z.uuid(), reason: z.string() })),
});

export const templateRefinementAnswer = z.object({
  ...labelled,
  refinedTemplate: z.string(),
  placeholders: z.array(z.string()),
  changes: z.array(change),
  issues: z.array(z.string()),
});

export const aiLimitError = z.object({
  success: z.literal(false),
  error: z.string(),
  limits: z.object({ tier: z.string(), aiRequestsPerDay: z.number().int().nullable(), aiRequestsPerMonth: z.number().int().nullable() }),
  usage: z.object({ aiRequestsToday: z.number().int(), aiRequestsThisMonth: z.number().int(), exceeded: z.string(), resetsAt: z.string() }),
});

export type GrammarBody = z.infer<typeof grammarBody>;
export type GrammarAnswer = z.infer<typeof grammarAnswer>;
export type GrammarAnalysisBody = z.infer<typeof grammarAnalysisBody>;
export type GrammarAnalysisAnswer = z.infer<typeof grammarAnalysisAnswer>;
export type ContentAnalysisBody = z.infer<typeof contentAnalysisBody>;
export type ContentAnalysisAnswer = z.infer<typeof contentAnalysisAnswer>;
export type ContentRefinementBody = z.infer<typeof contentRefinementBody>;
export type ContentRefinementAnswer = z.infer<typeof contentRefinementAnswer>;
export type MemoryPromptsBody = z.infer<typeof memoryPromptsBody>;
export type MemoryPromptsAnswer = z.infer<typeof memoryPromptsAnswer>;
export type StoryConnectionsBody = z.infer<typeof storyConnectionsBody>;
export type StoryConnectionsAnswer = z.infer<typeof storyConnectionsAnswer>;
export type PhotoSuggestionsBody = z.infer<typeof photoSuggestionsBody>;
export type PhotoSuggestionsAnswer = z.infer<typeof photoSuggestionsAnswer>;
export type TemplateRefinementBody = z.infer<typeof templateRefinementBody>;
export type TemplateRefinementAnswer = z.infer<typeof templateRefinementAnswer>;
export type Change = z.infer<typeof change>;
export type Labelled = { success: true; source: 'llm' | 'offline'; offline: boolean; aiGenerated: boolean; model: string; fallback?: string };
