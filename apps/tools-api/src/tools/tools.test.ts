// The offline catalogues over many seeds: content matches each tool's content schema, no placeholder or
// filler text slips through, SEO copy stays in bounds, and different seeds give different content.
import { TOOL_ROUTES } from '@story/db';
import { SAMPLE_OPTIONS } from '../test/helper';
import { createRng, fitSeo, TOOL_DEFINITIONS } from '.';
import { flashcardsFromText } from './definitions/flashcards';
import { paginate } from './definitions/flipbook';

describe.each(TOOL_ROUTES.map((tool) => [tool]))('%s offline generator', (tool) => {
  const def = TOOL_DEFINITIONS[tool];
  const options = def.optionsSchema.parse(SAMPLE_OPTIONS[tool] ?? {});

  it('produces valid, filled, varied content', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 40; seed++) {
      const content = def.generateOffline(options, createRng(seed));
      expect(def.llm.contentSchema.safeParse(content).success).toBe(true);
      const text = JSON.stringify(content);
      expect(text).not.toMatch(/lorem|ipsum|undefined|null|NaN|\{[A-Za-z]+\}/);
      const seo = fitSeo(def.seo(content, options), ['x']);
      expect(seo.title.length).toBeGreaterThanOrEqual(50);
      expect(seo.title.length).toBeLessThanOrEqual(60);
      expect(seo.description.length).toBeGreaterThanOrEqual(150);
      expect(seo.description.length).toBeLessThanOrEqual(160);
      expect(def.exportRows(content).length).toBeGreaterThan(0);
      expect(def.summary(content).length).toBeGreaterThan(0);
      seen.add(text);
    }
    // Text-driven tools are deterministic by design; the catalogue tools must vary.
    if (tool !== 'flashcards' && tool !== 'flipbook') expect(seen.size).toBeGreaterThan(10);
  });
});

it('gives several variants per call for names and titles, and three blurbs with an analysis', () => {
  const names = TOOL_DEFINITIONS['character-name-generator'].generateOffline({ style: 'celtic', gender: 'any', count: 25, includeSurname: true }, createRng(3));
  expect((names['names'] as unknown[]).length).toBe(25);
  expect(new Set((names['names'] as { fullName: string }[]).map((n) => n.fullName)).size).toBe(25);
  const titles = TOOL_DEFINITIONS['story-title-generator'].generateOffline({ genre: 'horror', tone: 'dark', count: 12, keywords: ['lighthouse'] }, createRng(4));
  expect((titles['titles'] as unknown[]).length).toBe(12);
  const blurb = TOOL_DEFINITIONS['book-blurb'].optionsSchema.parse({ bookTitle: 'Tidewater', protagonist: 'Mara Quill', tone: 'suspenseful' });
  const c = TOOL_DEFINITIONS['book-blurb'].generateOffline(blurb, createRng(5)) as unknown as { versions: { type: string; blurb: string }[]; performanceAnalysis: { recommended: string; scores: unknown[] } };
  expect(c.versions.map((v) => v.type)).toEqual(['hook-focused', 'character-driven', 'situation-based']);
  expect(c.versions.every((v) => v.blurb.includes('Mara'))).toBe(true);
  expect(c.performanceAnalysis.scores).toHaveLength(3);
  expect(['hook-focused', 'character-driven', 'situation-based']).toContain(c.performanceAnalysis.recommended);
});

it('shapes romance prompts by trope and heat level', () => {
  const def = TOOL_DEFINITIONS['romance-writing-prompts'];
  const sweet = def.generateOffline(def.optionsSchema.parse({ trope: 'fake-dating', heatLevel: 'sweet' }), createRng(1));
  const steamy = def.generateOffline(def.optionsSchema.parse({ trope: 'fake-dating', heatLevel: 'steamy' }), createRng(1));
  expect(sweet['prompt']).toMatch(/date/);
  expect(sweet['heatGuidance']).not.toBe(steamy['heatGuidance']);
});

it('makes term, question and cloze cards from study text', () => {
  const text = SAMPLE_OPTIONS['flashcards']!['text'] as string;
  const terms = flashcardsFromText(text, 'term-definition', 'medium', 10);
  expect(terms).toEqual(expect.arrayContaining([expect.objectContaining({ front: 'Photosynthesis', back: expect.stringMatching(/^The process by which green plants/) })]));
  const qa = flashcardsFromText(text, 'qa', 'medium', 10);
  expect(qa.map((c) => c.front)).toContain('What are mitochondria?');
  const cloze = flashcardsFromText(text, 'cloze', 'hard', 10);
  expect(cloze.every((c) => c.front.includes('_____') && !c.front.includes(c.back))).toBe(true);
  expect(flashcardsFromText(text, 'qa', 'medium', 2)).toHaveLength(2);
});

it('paginates text keeping paragraphs whole', () => {
  const pages = paginate('One two three.\n\nFour five six.\n\nSeven eight nine ten.', 6);
  expect(pages).toEqual(['One two three.\n\nFour five six.', 'Seven eight nine ten.']);
});
