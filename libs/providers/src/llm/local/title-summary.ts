// Offline title and summary: the title is the short first sentence or the most mentioned name or place
// (with the first year, when there is one); the summary is one or two sentences taken verbatim from the
// text, chosen by how many of the text's recurring words they carry. Nothing is invented.
import { findMentions, sentences, words } from './text';

export interface TitleSummary {
  title: string;
  summary: string;
}

const STOP = new Set(
  'a an and are as at be been but by for from had has have he her him his i in is it its me my of on or our she so that the their them then there they this to up us was we were what when where which who will with you your just very really about all also back because did do got like me one out over some than too well went would could into'.split(
    ' ',
  ),
);

const strip = (s: string) => s.replace(/[.!?,;:\s]+$/, '');

function titleCase(phrase: string): string {
  return phrase.charAt(0).toUpperCase() + phrase.slice(1);
}

export function makeTitle(text: string): string {
  const list = sentences(text);
  if (list.length === 0) return 'Untitled memory';
  const first = strip(list[0]);
  if (words(first).length <= 8) return titleCase(first);

  const mentions = findMentions(text);
  const lower = text.toLowerCase();
  const count = (p: string) => lower.split(p.toLowerCase()).length - 1;
  const named = [...mentions.places, ...mentions.people].filter((p) => /^\p{Lu}/u.test(p));
  const salient = named.sort((a, b) => count(b) - count(a))[0];
  // a year joins the title only when it is said in the same sentence as the name
  const year = salient && list.filter((s) => s.includes(salient)).map((s) => s.match(/\b(1[6-9]\d\d|20\d\d)s?\b/)?.[0]).find(Boolean);
  if (salient) return year ? `${salient}, ${year}` : salient;

  // no names: the opening words of the first sentence, cut at a word boundary
  return titleCase(words(first).slice(0, 8).join(' '));
}

export function makeSummary(text: string): string {
  const list = sentences(text);
  if (list.length <= 2) return list.join(' ');
  const frequency = new Map<string, number>();
  for (const w of words(text)) {
    const k = w.toLowerCase();
    if (!STOP.has(k) && k.length > 2) frequency.set(k, (frequency.get(k) ?? 0) + 1);
  }
  const score = (s: string) => {
    const ws = words(s).map((w) => w.toLowerCase());
    if (ws.length < 4) return 0;
    const weight = ws.reduce((n, w) => {
      const f = frequency.get(w) ?? 0;
      return n + (f > 1 ? f : 0);
    }, 0);
    const specifics = words(s).filter((w) => /^\p{Lu}/u.test(w) || /^\d/.test(w)).length;
    return (weight + 2 * specifics) / Math.sqrt(ws.length);
  };
  // the opening sentence sets the scene; the best-scoring later sentence adds what the memory is about
  const rest = list.slice(1).map((s, i) => ({ s, i, score: score(s) }));
  const best = rest.sort((a, b) => b.score - a.score || a.i - b.i)[0];
  const picked = [list[0]];
  if (best && words(list[0]).length + words(best.s).length <= 60) picked.push(best.s);
  return picked.join(' ');
}

export function titleSummary(text: string): TitleSummary {
  const flat = text.replace(/\s+/g, ' ').trim();
  return { title: makeTitle(flat), summary: makeSummary(flat) };
}
