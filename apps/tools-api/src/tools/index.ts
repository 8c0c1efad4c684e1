// The registry: the sixteen tool definitions by route name (TOOL_ROUTES order).
import type { ToolRoute } from '@story/db';
import { adventurePrompts, mysteryPlotGenerator } from './definitions/adventure-mystery';
import { bookBlurb } from './definitions/book-blurb';
import { familyInterviewQuestions, memoryPrompts } from './definitions/family';
import { flashcards } from './definitions/flashcards';
import { flipbook } from './definitions/flipbook';
import { comedyPrompts, horrorStoryPrompts } from './definitions/horror-comedy';
import { characterNameGenerator, firstLineGenerator, storyTitleGenerator } from './definitions/lines-names-titles';
import { plotTwists } from './definitions/plot-twists';
import { meetCuteGenerator, romanceWritingPrompts } from './definitions/romance';
import { storyPrompts } from './definitions/story-prompts';
import type { ToolDefinition } from './tool-definition';

export const TOOL_DEFINITIONS: { readonly [K in ToolRoute]: ToolDefinition } = {
  flashcards,
  'story-prompts': storyPrompts,
  'book-blurb': bookBlurb,
  'romance-writing-prompts': romanceWritingPrompts,
  flipbook,
  'plot-twists': plotTwists,
  'meet-cute-generator': meetCuteGenerator,
  'family-interview-questions': familyInterviewQuestions,
  'memory-prompts': memoryPrompts,
  'adventure-prompts': adventurePrompts,
  'mystery-plot-generator': mysteryPlotGenerator,
  'horror-story-prompts': horrorStoryPrompts,
  'comedy-prompts': comedyPrompts,
  'first-line-generator': firstLineGenerator,
  'character-name-generator': characterNameGenerator,
  'story-title-generator': storyTitleGenerator,
};

export const toolDefinition = (tool: ToolRoute): ToolDefinition => TOOL_DEFINITIONS[tool];

export { UnusableInputError } from './definitions/flashcards';
export type { ToolDefinition, ToolContent, SeoMetadata, ToolCluster } from './tool-definition';
export { createRng, type Rng } from './rng';
export { fitSeo } from './seo';
export { SAMPLE_INPUTS } from './samples';
