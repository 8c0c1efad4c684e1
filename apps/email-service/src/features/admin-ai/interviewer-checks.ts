// What a good interviewer turn looks like (the built-in interviewer prompt asks for exactly this): one
// open question, short, new, and built on something the storyteller just said. Pure functions, so the
// conversation tester and its tests agree on the rules.
const STOP = new Set(['that', 'this', 'with', 'from', 'have', 'were', 'what', 'when', 'where', 'there', 'their', 'they', 'them', 'then', 'your', 'about', 'would', 'could', 'been', 'into', 'just', 'very', 'some', 'much', 'more', 'tell', 'like']);

const contentWords = (text: string) => new Set((text.toLowerCase().match(/[\p{L}]{4,}/gu) ?? []).filter((w) => !STOP.has(w)));

export interface TurnCheck {
  name: 'one_question' | 'short' | 'not_repeated' | 'builds_on_answer';
  passed: boolean;
}

export function checkTurn(question: string, lastAnswer: string, earlier: string[]): TurnCheck[] {
  const q = question.trim();
  const marks = (q.match(/\?/g) ?? []).length;
  const answerWords = contentWords(lastAnswer);
  return [
    { name: 'one_question', passed: marks === 1 && q.endsWith('?') },
    { name: 'short', passed: q.length > 0 && q.length <= 300 },
    { name: 'not_repeated', passed: !earlier.some((e) => e.trim().toLowerCase() === q.toLowerCase()) },
    { name: 'builds_on_answer', passed: [...contentWords(q)].some((w) => answerWords.has(w)) },
  ];
}
