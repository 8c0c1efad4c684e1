// Flashcards from study text (typed, or extracted from a PDF or an image by the upload route): definitions
// ("X is Y", "X: Y") become term/definition or question/answer cards, other sentences cloze cards.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { cap, optionalText } from '../text';
import { defineTool } from '../tool-definition';

/** The visitor's text holds nothing a card can be made from (the service answers INVALID_INPUT on this field). */
export class UnusableInputError extends Error {
  constructor(readonly field: string, message: string) {
    super(message);
    this.name = 'UnusableInputError';
  }
}

const options = z.object({
  text: z.string().trim().min(20).max(100_000),
  deckName: optionalText(200),
  cardCount: z.number().int().min(1).max(100).default(10),
  cardStyle: z.enum(['term-definition', 'qa', 'cloze']).default('term-definition'),
  difficulty: z.enum(['easy', 'medium', 'hard']).default('medium'),
});
type Options = z.infer<typeof options>;

const card = z.object({ id: z.string(), front: z.string().min(1), back: z.string().min(1), hint: z.string().optional(), kind: z.enum(['definition', 'cloze']) });
const content = z.object({
  title: z.string().min(1),
  deckName: z.string(),
  cardStyle: z.string(),
  difficulty: z.string(),
  cardCount: z.number().int(),
  cards: z.array(card).min(1),
  sourceType: z.enum(['text', 'pdf', 'image']),
});
type Content = z.infer<typeof content>;
export type Flashcard = z.infer<typeof card>;

const STOP = new Set('the a an and or but of to in on at by for with from as is are was were be been this that these those it its their there which who whom what when where why how not no than then so such into over under about after before between also very more most can could should would may might will'.split(' '));
const DEFINITION = /^(.{2,80}?)\s+(is|are|was|were|refers to|means|describes|consists of|is called|are called)\s+(.{5,})$/i;
const COLON = /^([^:]{2,80}?)\s*[:–—]\s+(.{5,})$/;

const sentencesOf = (text: string) =>
  (text.replace(/\r/g, '').replace(/\n{2,}/g, '. ').replace(/\s+/g, ' ').match(/[^.!?]+[.!?]?/g) ?? []).map((s) => s.trim()).filter((s) => s.split(' ').length >= 3);

const cardId = (front: string, back: string) => createHash('sha1').update(`${front}\u0000${back}`).digest('hex').slice(0, 12);
const stripArticle = (s: string) => s.replace(/^(the|a|an)\s+/i, '').trim();
const unstop = (s: string) => s.replace(/[.!?]+$/, '').trim();

/** Cards from text: definitions first, then cloze deletions, without duplicates, up to `count`. */
export function flashcardsFromText(text: string, style: Options['cardStyle'], difficulty: Options['difficulty'], count: number): Flashcard[] {
  const sentences = sentencesOf(text);
  const cards: Flashcard[] = [];
  const fronts = new Set<string>();
  const push = (c: Omit<Flashcard, 'id'>) => {
    if (cards.length >= count || fronts.has(c.front.toLowerCase())) return;
    fronts.add(c.front.toLowerCase());
    cards.push({ id: cardId(c.front, c.back), ...c });
  };
  const used = new Set<number>();
  if (style !== 'cloze') {
    sentences.forEach((s, i) => {
      const m = DEFINITION.exec(unstop(s)) ?? COLON.exec(unstop(s));
      if (!m) return;
      const term = stripArticle(m[1]!);
      const definition = cap(unstop(m[m.length - 1]!));
      if (term.split(' ').length > 8 || /^(it|this|that|they|he|she|there)$/i.test(term)) return;
      const verb = m.length === 4 ? m[2]!.toLowerCase() : 'is';
      used.add(i);
      if (style === 'qa') push({ front: `What ${/^(are|were)$/.test(verb) ? 'are' : 'is'} ${term}?`, back: `${definition}.`, kind: 'definition' });
      else push({ front: cap(term), back: `${definition}.`, kind: 'definition' });
    });
  }
  const minLength = difficulty === 'easy' ? 4 : difficulty === 'medium' ? 6 : 8;
  sentences.forEach((s, i) => {
    if (used.has(i) || s.split(' ').length < 6) return;
    const words = s.match(/[\p{L}][\p{L}'’-]*/gu) ?? [];
    const candidates = words.filter((w) => w.length >= minLength && !STOP.has(w.toLowerCase()));
    if (!candidates.length) return;
    // Hard cards blank the rarest-looking (longest) word; easy ones a shorter, more guessable one.
    const sorted = [...candidates].sort((a, b) => b.length - a.length);
    const answer = difficulty === 'easy' ? sorted[sorted.length - 1]! : sorted[0]!;
    const front = s.replace(new RegExp(`\\b${answer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`), '_____');
    push({ front, back: answer, hint: difficulty === 'hard' ? undefined : `${answer[0]}… (${answer.length} letters)`, kind: 'cloze' });
  });
  return cards.map((c) => (c.hint === undefined ? { id: c.id, front: c.front, back: c.back, kind: c.kind } : c));
}

export const flashcards = defineTool<Options, Content>({
  route: 'flashcards',
  cluster: 'core',
  title: 'Flashcard Generator',
  description: 'Flashcard decks from your notes, a PDF or a photo of a page: term and definition, question and answer, or cloze cards.',
  sharePrefix: 'fc',
  optionsSchema: options,
  generateOffline(o) {
    const cards = flashcardsFromText(o.text, o.cardStyle, o.difficulty, o.cardCount);
    if (!cards.length) throw new UnusableInputError('options.text', 'No definitions or full sentences to make cards from were found in this text');
    const first = cards.find((c) => c.kind === 'definition')?.front.replace(/^What (is|are) |\?$/g, '');
    const deckName = o.deckName ?? `Flashcards: ${first ?? o.text.split(/\s+/).slice(0, 5).join(' ')}`;
    return { title: deckName, deckName, cardStyle: o.cardStyle, difficulty: o.difficulty, cardCount: cards.length, cards, sourceType: 'text' };
  },
  llm: {
    system: 'You turn study material into accurate flashcards. Use only facts stated in the text. Answer with JSON only.',
    user: (o) =>
      `Make up to ${o.cardCount} ${o.difficulty} ${o.cardStyle} flashcards from this text${o.deckName ? ` for a deck called "${o.deckName}"` : ''}. ` +
      'Return {"title", "deckName", "cardStyle", "difficulty", "cardCount", "cards": [{"id", "front", "back", "hint"?, "kind": "definition" | "cloze"}], "sourceType": "text"}.\n\n' +
      o.text.slice(0, 20_000),
    contentSchema: content,
  },
  seo: (c) => ({
    title: /flashcard/i.test(c.deckName) ? c.deckName : `${c.deckName} flashcards`,
    description: `A deck of ${c.cardCount} ${c.difficulty} flashcards: ${c.cards.slice(0, 2).map((x) => `${x.front} ${x.back}`).join(' ')}`,
    keywords: ['flashcard generator', 'study flashcards', `${c.cardStyle} cards`, 'anki import', 'quizlet import', 'revision cards'],
  }),
  exportRows: (c) => [['Deck', c.deckName], ['Cards', String(c.cardCount)], ...c.cards.map((x) => [x.front, x.back] as [string, string])],
  category: (o) => o.cardStyle,
  summary: (c) => `${c.cardCount} cards: ${c.cards[0]?.front ?? ''}`,
});
