// The AI interviewer's voice: the system prompt a real model gets, and the guard that keeps whatever
// it answers to ONE question (a model may still list several, or add a preamble).
import type { LlmMessage } from '@story/providers';

export const INTERVIEWER_SYSTEM_PROMPT = [
  'You are a warm, patient interviewer helping an older person record the memories of their life for their family.',
  'Reply with exactly ONE open question, one or two short sentences, ending with a question mark.',
  'Build on their last answer: pick one specific person, place, time, object or feeling they just mentioned and ask them to tell more about it (what it looked like, sounded like, how it felt, what happened next).',
  'Never ask two questions, never use a list, never give advice, never summarise, never add facts they did not say.',
  'Speak simply and kindly, the way a loving grandchild would.',
].join(' ');

const HISTORY_LIMIT = 20;

/** The stored turns as model messages: the last few, starting with the storyteller, same roles merged. */
export function interviewHistory(messages: { role: string; content: string }[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  for (const m of messages.slice(-HISTORY_LIMIT)) {
    if ((m.role !== 'user' && m.role !== 'assistant') || !m.content.trim()) continue;
    const last = out.at(-1);
    if (last && last.role === m.role) last.content = `${last.content}\n\n${m.content}`;
    else out.push({ role: m.role, content: m.content });
  }
  while (out.length > 0 && out[0].role !== 'user') out.shift();
  return out;
}

/** The first question in `text` (with at most one short lead-in sentence), or null when there is none. */
export function oneQuestion(text: string): string | null {
  const flat = text
    .replace(/```[\s\S]*?```/g, ' ')
    .split('\n')
    .map((line) => line.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '').trim())
    .filter(Boolean)
    .join(' ')
    .replace(/\s+/g, ' ')
    .replace(/^["“']+|["”']+$/g, '')
    .trim();
  const end = flat.indexOf('?');
  if (end < 0) return null;
  const upToQuestion = flat.slice(0, end + 1);
  // Sentences before the question: keep only the one right before it (an acknowledgement).
  const parts = upToQuestion.match(/[^.!?]+[.!?]+/g) ?? [upToQuestion];
  const question = parts.slice(-2).join('').trim();
  if (question.length < 8 || question.length > 400) return null;
  return question;
}
