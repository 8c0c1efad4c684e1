// POST /api/ai/photo-suggestions: where the caller's photos fit in one story. Offline: each photo's title,
// caption and the year it was taken are matched against each paragraph (a shared name 3, the year 2, any
// other shared word 1; ties go to the earlier paragraph); a photo goes to its best paragraph, and one that matches nothing is listed as
// unplaced with the reason. With a model: it reads the numbered paragraphs and photo descriptions.
import { z } from 'zod';
import { extractMentions } from '@story/providers';
import type { PhotoSuggestionsAnswer } from './ai-helpers.schemas';
import type { ImageInfo } from './ai-helpers.repository';
import { wordsOf } from './text-measures';

type Result = Pick<PhotoSuggestionsAnswer, 'paragraphs' | 'suggestions' | 'unplaced'>;

const STOP = new Set(
  'the and was were with that this from they them then there their have had has for but not you your our out all are his her she him into when what which who would could about after before over very just some photo picture image'.split(' '),
);
const contentWords = (text: string) => new Set(wordsOf(text).map((w) => w.toLowerCase()).filter((w) => w.length > 2 && !STOP.has(w)));

/** Plain paragraphs of a story's HTML (or plain) content. */
export function storyParagraphs(content: string): string[] {
  return content
    .split(/<\/p>|<br\s*\/?>\s*<br\s*\/?>|\n\s*\n/i)
    .map((p) => p.replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}

const describe = (img: ImageInfo) => [img.title, img.caption].filter(Boolean).join('. ');
const yearOf = (img: ImageInfo) => (img.takenYear !== null ? String(img.takenYear) : (describe(img).match(/\b(1[89]\d\d|20\d\d)\b/)?.[1] ?? null));

export function placePhotosOffline(content: string, images: ImageInfo[]): Result {
  const paragraphs = storyParagraphs(content);
  const paras = paragraphs.map((text) => {
    const m = extractMentions(text);
    return { text, words: contentWords(text), years: m.years, nameWords: new Set([...m.people, ...m.places].flatMap((n) => n.toLowerCase().split(' '))) };
  });
  const suggestions: Result['suggestions'] = [];
  const unplaced: Result['unplaced'] = [];
  for (const img of images) {
    const text = describe(img);
    const year = yearOf(img);
    if (!text && !year) {
      unplaced.push({ imageId: img.id, reason: 'The photo has no title, caption or date to match against the story.' });
      continue;
    }
    const names = extractMentions(text);
    const words = contentWords(text);
    let best = { index: -1, score: 0, reasons: [] as string[] };
    paras.forEach(({ text: p, words: pWords, years: pYears, nameWords }, i) => {
      const reasons: string[] = [];
      let score = 0;
      const lowerP = p.toLowerCase();
      for (const n of [...names.people, ...names.places]) {
        if (lowerP.includes(n.toLowerCase())) {
          score += 3;
          reasons.push(`names ${n}`);
        }
      }
      if (year && (pYears.includes(year) || p.includes(year))) {
        score += 2;
        reasons.push(`mentions ${year}`);
      }
      const named = new Set([...names.people, ...names.places].flatMap((n) => n.toLowerCase().split(' ')));
      const common = [...words].filter((w) => pWords.has(w) && !named.has(w));
      // A shared word the paragraph uses as a name ("on Briggate") counts as a name.
      const asName = common.filter((w) => nameWords.has(w));
      const plainWords = common.filter((w) => !nameWords.has(w));
      score += asName.length * 3 + plainWords.length;
      if (asName.length) reasons.push(`names ${asName.join(', ')}`);
      if (plainWords.length) reasons.push(`shares the words ${plainWords.slice(0, 5).join(', ')}`);
      if (score > best.score) best = { index: i, score, reasons };
    });
    if (best.index < 0) unplaced.push({ imageId: img.id, reason: 'Its title, caption and date share nothing with the story’s paragraphs.' });
    else suggestions.push({ imageId: img.id, paragraphIndex: best.index, score: best.score, reasons: best.reasons });
  }
  suggestions.sort((a, b) => a.paragraphIndex - b.paragraphIndex || b.score - a.score);
  return { paragraphs: paragraphs.length, suggestions, unplaced };
}

export const PHOTOS_SYSTEM =
  'You place family photos into the paragraphs of a memoir story. Use only the photo descriptions and the paragraph texts; leave a photo out when nothing fits. ' +
  'Answer JSON {"placements": [{"photo": number, "paragraph": number, "reason": string}]}.';

export const photosModelSchema = z.object({
  placements: z.array(z.object({ photo: z.number().int(), paragraph: z.number().int(), reason: z.string().max(500) })).max(100),
});

export function photosBrief(content: string, images: ImageInfo[]): string {
  const paragraphs = storyParagraphs(content).map((p, i) => `P${i + 1}. ${p.split(/\s+/).slice(0, 120).join(' ')}`);
  const photos = images.map((img, i) => `Photo ${i + 1}: ${describe(img) || '(no description)'}${yearOf(img) ? ` (taken ${yearOf(img)})` : ''}`);
  return `Paragraphs:\n${paragraphs.join('\n')}\n\nPhotos:\n${photos.join('\n')}`;
}

export function photosFromModel(content: string, images: ImageInfo[], data: z.infer<typeof photosModelSchema>): Result {
  const count = storyParagraphs(content).length;
  const placed = new Map<string, Result['suggestions'][number]>();
  for (const p of data.placements) {
    const img = images[p.photo - 1];
    if (!img || p.paragraph < 1 || p.paragraph > count || placed.has(img.id)) continue;
    placed.set(img.id, { imageId: img.id, paragraphIndex: p.paragraph - 1, score: 1, reasons: [p.reason] });
  }
  const unplaced = images.filter((i) => !placed.has(i.id)).map((i) => ({ imageId: i.id, reason: 'The model found no paragraph this photo fits.' }));
  return { paragraphs: count, suggestions: [...placed.values()].sort((a, b) => a.paragraphIndex - b.paragraphIndex), unplaced };
}
