// Writing the story from its source. With a model configured: a grounded prompt asking for the memory in
// the storyteller's own voice using only what the source states, and, when the check finds invented
// details, one rewrite told exactly which ones. Offline: the local clean-up (fillers, false starts,
// punctuation, paragraphs), which only removes words and so cannot invent. A model may also judge the
// result; its findings are added to the deterministic check, never subtracted from it.
import { z } from 'zod';
import { cleanTranscript, providerForFeature, type LanguageModel } from '@story/providers';

export interface WrittenStory {
  paragraphs: string[];
  model: string;
  aiEnhanced: boolean;
  tokens: number;
}

const storySchema = z.object({ paragraphs: z.array(z.string().min(1)).min(1).max(80) }).loose();
const judgeSchema = z.object({ faithful: z.boolean(), unsupportedClaims: z.array(z.string()).max(50) }).loose();

const WRITER_SYSTEM = [
  'You turn a transcript of an older person telling a family memory into a short written story in their own first-person voice.',
  'Use ONLY facts the transcript states. Never add a name, number, date, place or event that is not in it; do not guess years or ages.',
  'Keep their words and expressions where you can; remove fillers, false starts and repetitions; fix punctuation; split into paragraphs in the order they told it.',
  'Answer JSON {"paragraphs": [string]}.',
].join(' ');

export function localParagraphs(source: string): string[] {
  return cleanTranscript(source)
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
}

export async function writeStory(llm: LanguageModel, input: { source: string; title: string; userId: string; avoid?: string[] }): Promise<WrittenStory> {
  if ((await providerForFeature(llm, 'story-conversion')) === 'local') return { paragraphs: localParagraphs(input.source), model: 'local-clean-transcript', aiEnhanced: false, tokens: 0 };
  const correction = input.avoid?.length
    ? `\n\nYour previous version added details the transcript does not contain: ${input.avoid.join('; ')}. Write it again without them.`
    : '';
  const result = await llm.completeJson(
    {
      task: 'story-from-source',
      input: { transcript: input.source, title: input.title },
      system: WRITER_SYSTEM,
      promptKey: 'story_conversion.writer',
      messages: [{ role: 'user', content: `Title: ${input.title}\n\nTranscript:\n${input.source}${correction}` }],
      maxTokens: 4000,
      temperature: 0.3,
    },
    storySchema,
    { userId: input.userId, feature: 'story-conversion' },
  );
  return { paragraphs: result.data.paragraphs.map((p) => p.trim()).filter(Boolean), model: result.model, aiEnhanced: true, tokens: result.usage.inputTokens + result.usage.outputTokens };
}

/** A model's second opinion on faithfulness (only with a real model); null when there is none to be had. */
export async function judgeFaithfulness(llm: LanguageModel, input: { source: string; story: string; userId: string }): Promise<{ faithful: boolean; unsupportedClaims: string[]; model: string } | null> {
  if ((await providerForFeature(llm, 'story-conversion')) === 'local') return null;
  try {
    const result = await llm.completeJson(
      {
        task: 'faithfulness-judge',
        input: { source: input.source, story: input.story },
        system:
          'You check a written story against the transcript it was made from. List every name, number, date, place or event in the story that the transcript does not state. Answer JSON {"faithful": boolean, "unsupportedClaims": [string]}.',
        messages: [{ role: 'user', content: `Transcript:\n${input.source}\n\nStory:\n${input.story}` }],
        maxTokens: 800,
        temperature: 0,
      },
      judgeSchema,
      { userId: input.userId, feature: 'story-conversion' },
    );
    return { ...result.data, model: result.model };
  } catch {
    return null;
  }
}
