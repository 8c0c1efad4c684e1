// The book both engines lay out: chapters of family-story prose with names in Polish, Greek and Chinese
// (scripts the old pdfkit path also drew), sized to about 300 pages at 6x9 with the Typst layout.
import type { ContentBlock } from '../../apps/core-api/src/features/stories/story-content';

const SENTENCES = [
  'The harvest came in late that year and everyone helped bring it home before the autumn rain.',
  'Grandmother Zofia Wójcik kept the recipes in a tin box that had come with her from Łódź.',
  'On Sundays the whole family walked to the river, where Eleni sang Καλημέρα to the fishermen.',
  'Uncle 王秀英 wrote letters every month, and the children took turns reading them aloud by the stove.',
  'We learned to mend nets, to bake bread before dawn, and to listen when the old people talked.',
  'Nobody owned a car then, so the doctor came on horseback through the snow, a lantern in his hand.',
  'When the war ended the bells rang for an hour and the neighbours brought out everything they had.',
];

export interface BenchChapter {
  title: string;
  blocks: ContentBlock[];
}

/** `chapters` chapters of `paragraphs` paragraphs each, the same text on every run. */
export function benchBook(chapters = 20, paragraphs = 55): BenchChapter[] {
  return Array.from({ length: chapters }, (_, c) => ({
    title: `Chapter of the year ${1931 + c}`,
    blocks: Array.from({ length: paragraphs }, (_, p) => ({
      kind: 'paragraph' as const,
      runs: [{ text: Array.from({ length: 4 + ((c + p) % 3) }, (_, s) => SENTENCES[(c * 7 + p * 3 + s) % SENTENCES.length]).join(' '), bold: false, italic: false }],
    })),
  }));
}
