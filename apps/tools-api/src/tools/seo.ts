// SEO copy within spec 002's bounds: title 50-60 characters, description 150-160, 5 to 10 keywords. Tool
// definitions propose wording; these functions cut at word boundaries or extend with neutral phrases.
import type { SeoMetadata } from './tool-definition';

const TITLE_SUFFIXES = [' | Free Writing Tool', ' | Family Stories', ' - Free Online Generator', ' | Free Writing Ideas & Tools', ' | Free Tools for Writers', ' for Writers', ' | Free Ideas', ' | Free Tool'];
const DESCRIPTION_SUFFIXES = [
  ' Generate your own for free, save it, share it and export it.',
  ' A free writing tool for storytellers, students and families.',
  ' Create your own in seconds with the free Family Stories writing tools.',
  ' Made with the Family Stories free writing tools.',
  ' Free to use, no account needed.',
  ' Save, share and export it.',
  ' No sign-up needed.',
  ' Try it free.',
  ' Free to use.',
];
const FILLER_WORDS = ['free', 'creative', 'writing', 'ideas', 'online', 'today', 'tool', 'stories', 'prompts', 'writers'];

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Cut to at most `max` characters at a word boundary, ending with an ellipsis when something was cut. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = text.slice(0, max - 1);
  const space = room.lastIndexOf(' ');
  const base = (space > max * 0.6 ? room.slice(0, space) : room).replace(/[\s,;:.\-|]+$/, '');
  return `${base}…`;
}

/** A string between min and max characters built from `text`: cut at a word boundary when long, extended with whole suffixes when short. */
export function fitLength(text: string, min: number, max: number, suffixes: readonly string[]): string {
  let out = cut(squash(text), max);
  const unused = [...suffixes];
  while (out.length < min && unused.length) {
    // A suffix that lands inside the window, else the longest one that still leaves room.
    const exact = unused.find((s) => out.length + s.length >= min && out.length + s.length <= max);
    const next = exact ?? [...unused].sort((a, b) => b.length - a.length).find((s) => out.length + s.length <= max - 10);
    if (!next) break;
    out += next;
    unused.splice(unused.indexOf(next), 1);
  }
  let i = 0;
  // Each filler adds at most 10 characters, and the window is at least 10 wide: never overshoots max.
  while (out.length < min) out += ` ${FILLER_WORDS[i++ % FILLER_WORDS.length]}`;
  return out;
}

export function fitKeywords(proposed: readonly string[], defaults: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of [...proposed, ...defaults]) {
    const k = squash(String(raw)).toLowerCase().slice(0, 60);
    if (!k || seen.has(k)) continue;
    seen.add(k);
    out.push(k);
    if (out.length === 10) break;
  }
  for (const filler of ['free writing tool', 'writing prompts', 'creative writing', 'story ideas', 'writing ideas']) {
    if (out.length >= 5) break;
    if (seen.has(filler)) continue;
    seen.add(filler);
    out.push(filler);
  }
  return out;
}

/** A page's meta description within spec 002's 150-160 characters (landing and browse pages too). */
export const fitDescription = (text: string): string => fitLength(text, 150, 160, DESCRIPTION_SUFFIXES);

export function fitSeo(proposed: { title: string; description: string; keywords: string[] }, toolKeywords: readonly string[]): SeoMetadata {
  return {
    title: fitLength(proposed.title, 50, 60, TITLE_SUFFIXES),
    description: fitDescription(proposed.description),
    keywords: fitKeywords(proposed.keywords, toolKeywords),
  };
}
