// The two-layer readiness gate (spec 000 States: readiness outcomes): a deterministic word floor, then one
// AI assessment. Fewer than 60 words is rejected; 60-149 is partial (converted only when the caller accepts
// a shorter story); 150 or more is ready unless the assessment finds too little story in it, which makes it
// partial. An assessment that cannot be had does not block: the floor alone decides, and that is recorded.
import { z } from 'zod';
import type { LanguageModel } from '@story/providers';

export type Readiness = 'rejected' | 'partial' | 'ready';

export const REJECT_BELOW_WORDS = 60;
export const READY_FROM_WORDS = 150;

export const countWords = (text: string) => (text.match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? []).length;

export function wordFloor(wordCount: number): Readiness {
  if (wordCount < REJECT_BELOW_WORDS) return 'rejected';
  if (wordCount < READY_FROM_WORDS) return 'partial';
  return 'ready';
}

export function floorReason(readiness: Readiness, wordCount: number): string {
  if (readiness === 'rejected') {
    return `There is not enough here for a story yet: ${wordCount} words were recorded and at least ${REJECT_BELOW_WORDS} are needed. Record a little more about this memory and try again.`;
  }
  return `This memory is short (${wordCount} words; ${READY_FROM_WORDS} or more make a full story). You can add more to it, or create a shorter story from what is there.`;
}

const assessmentSchema = z.object({ ready: z.boolean(), reasons: z.array(z.string()).max(20) }).loose();
export type Assessment = { ready: boolean; reasons: string[]; model?: string; error?: string };

const SYSTEM =
  'You decide whether a transcript of someone telling a family memory holds enough for a short written story ' +
  '(people, places, times, events), without inventing anything. Answer JSON {"ready": boolean, "reasons": [string]}.';

export async function assessWithAi(llm: LanguageModel, text: string, userId: string): Promise<Assessment> {
  try {
    const result = await llm.completeJson(
      { task: 'readiness-assessment', input: { text }, system: SYSTEM, promptKey: 'story_conversion.readiness', messages: [{ role: 'user', content: text }], maxTokens: 400, temperature: 0 },
      assessmentSchema,
      { userId, feature: 'story-conversion' },
    );
    return { ready: result.data.ready, reasons: result.data.reasons, model: result.model };
  } catch (err) {
    return { ready: true, reasons: [], error: err instanceof Error ? err.message : 'assessment unavailable' };
  }
}
