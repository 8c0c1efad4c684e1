// Splitting an imported text into candidate stories (POST /api/imports/[importId]/process). A local,
// deterministic algorithm, no model:
// 1. Normalise: line ends, page markers that PDF text extraction leaves, runs of blank lines.
// 2. Find structure: chapter markers ("Chapter 3: The farm", "Part II", "Story one"), markdown headings,
//    short ALL-CAPS lines and short numbered lines standing alone between blank lines, and scene breaks
//    ("* * *", "---", "~~~", "#"). Each opens a new story; a heading's text is its title.
// 3. No structure and a long text: paragraphs are grouped into stories of about TARGET_WORDS words, cut
//    only between paragraphs. A short text stays one story.
// 4. Fragments under MIN_WORDS join the story before them; a story over the content limit is cut in parts.
// Titles come from headings, else from the story's first sentence.
import { escapeHtml } from '@story/http';

export interface Candidate {
  index: number;
  title: string;
  content: string;
  wordCount: number;
}

export const SPLIT_METHOD = 'local-structure-split';
const TARGET_WORDS = 1000;
const LONG_TEXT_WORDS = 2000;
const MIN_WORDS = 15;
/** Plain text per story, so that its HTML (paragraph tags, escaped entities) stays under the 50,000 limit. */
const MAX_CHARS = 40_000;
const MAX_TITLE = 200;

const NUMBER_WORDS = 'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty';
const CHAPTER = new RegExp(`^(chapter|part|section|story|book|episode)\\s+(\\d{1,3}|[ivxlcdm]{1,7}|${NUMBER_WORDS})\\b\\s*[:.\\-–—)]?\\s*(.*)$`, 'i');
const MARKDOWN = /^#{1,3}\s+(\S.*)$/;
const BREAK = /^\s*(?:(?:\*\s*){3,}|(?:-\s*){3,}|(?:~\s*){3,}|(?:_\s*){3,}|#|§)\s*$/;
const NUMBERED = /^\d{1,2}[.)]\s+(\S.*)$/;
const PAGE_MARKER = /^\s*(?:--\s*\d+\s+of\s+\d+\s*--|page\s+\d+(?:\s+of\s+\d+)?|\d{1,3})\s*$/i;

const words = (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length);

type Line = { kind: 'text'; text: string } | { kind: 'blank' } | { kind: 'heading'; title: string } | { kind: 'break' };

function normalise(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\f/g, '\n\n')
    .replace(/[\t\u00a0]/g, ' ')
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''))
    .filter((l) => !PAGE_MARKER.test(l) || l.trim() === '');
}

const isShortTitle = (s: string) => words(s) > 0 && words(s) <= 10 && s.length <= 100 && !/[.,;]$/.test(s.trim());

function classify(lines: string[]): Line[] {
  const out: Line[] = [];
  const blank = (i: number) => i < 0 || i >= lines.length || lines[i]!.trim() === '';
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!.trim();
    if (line === '') {
      out.push({ kind: 'blank' });
      continue;
    }
    if (BREAK.test(line)) {
      out.push({ kind: 'break' });
      continue;
    }
    const chapter = CHAPTER.exec(line);
    if (chapter && (blank(i - 1) || blank(i + 1) || chapter[3] === '') && line.length <= 120) {
      const label = `${chapter[1]![0]!.toUpperCase()}${chapter[1]!.slice(1).toLowerCase()} ${chapter[2]}`;
      let title = chapter[3]!.trim() ? `${label}: ${chapter[3]!.trim()}` : label;
      // "CHAPTER 3" alone, then its name on the next line: one heading.
      const next = lines[i + 1]?.trim() ?? '';
      if (!chapter[3]!.trim() && next && isShortTitle(next) && blank(i + 2)) {
        title = `${label}: ${next}`;
        i += 1;
      }
      out.push({ kind: 'heading', title });
      continue;
    }
    const md = MARKDOWN.exec(line);
    if (md) {
      out.push({ kind: 'heading', title: md[1]!.replace(/#+$/, '').trim() });
      continue;
    }
    const standalone = blank(i - 1) && blank(i + 1);
    const caps = /\p{L}/u.test(line) && line === line.toUpperCase() && line !== line.toLowerCase();
    if (standalone && caps && isShortTitle(line) && words(line) >= 1) {
      out.push({ kind: 'heading', title: titleCase(line) });
      continue;
    }
    const numbered = NUMBERED.exec(line);
    if (standalone && numbered && isShortTitle(numbered[1]!)) {
      out.push({ kind: 'heading', title: numbered[1]!.trim() });
      continue;
    }
    out.push({ kind: 'text', text: line });
  }
  return out;
}

function titleCase(s: string): string {
  return s.toLowerCase().replace(/(^|[\s"(-])(\p{L})/gu, (_m, pre: string, ch: string) => pre + ch.toUpperCase());
}

interface Segment {
  title: string | null;
  paragraphs: string[];
}

/** Lines to segments: a heading or a break opens a segment; paragraphs are runs of text lines (unwrapped). */
function segment(lines: Line[]): { segments: Segment[]; structured: boolean } {
  const segments: Segment[] = [{ title: null, paragraphs: [] }];
  let paragraph: string[] = [];
  let markers = 0;
  const current = () => segments[segments.length - 1]!;
  const endParagraph = () => {
    if (paragraph.length) current().paragraphs.push(paragraph.join(' ').replace(/\s+/g, ' ').trim());
    paragraph = [];
  };
  for (const line of lines) {
    if (line.kind === 'text') paragraph.push(line.text);
    else if (line.kind === 'blank') endParagraph();
    else {
      endParagraph();
      markers += 1;
      segments.push({ title: line.kind === 'heading' ? line.title : null, paragraphs: [] });
    }
  }
  endParagraph();
  return { segments, structured: markers > 0 };
}

const segWords = (s: Segment) => s.paragraphs.reduce((n, p) => n + words(p), 0);

function groupParagraphs(paragraphs: string[]): Segment[] {
  const out: Segment[] = [];
  let current: string[] = [];
  let count = 0;
  for (const p of paragraphs) {
    current.push(p);
    count += words(p);
    if (count >= TARGET_WORDS) {
      out.push({ title: null, paragraphs: current });
      current = [];
      count = 0;
    }
  }
  if (current.length) {
    // A short tail joins the group before it rather than standing as a story of its own.
    if (out.length && count < TARGET_WORDS / 3) out[out.length - 1]!.paragraphs.push(...current);
    else out.push({ title: null, paragraphs: current });
  }
  return out;
}

/** A paragraph over MAX_CHARS in pieces: at the last space before the limit, else (no space at all) hard. */
function cutParagraph(p: string): string[] {
  const pieces: string[] = [];
  let rest = p;
  while (rest.length > MAX_CHARS) {
    const space = rest.lastIndexOf(' ', MAX_CHARS);
    const at = space > MAX_CHARS / 2 ? space : MAX_CHARS;
    pieces.push(rest.slice(0, at));
    rest = rest.slice(at).trimStart();
  }
  if (rest) pieces.push(rest);
  return pieces;
}

/** Cut a segment whose text is over MAX_CHARS between paragraphs (a single huge paragraph between sentences). */
function capLength(seg: Segment): Segment[] {
  const pieces = seg.paragraphs.flatMap((p) => (p.length <= MAX_CHARS ? [p] : cutParagraph(p)));
  const parts: Segment[] = [];
  let current: string[] = [];
  let size = 0;
  for (const p of pieces) {
    if (size + p.length > MAX_CHARS && current.length) {
      parts.push({ title: seg.title, paragraphs: current });
      current = [];
      size = 0;
    }
    current.push(p.trim());
    size += p.length + 2;
  }
  if (current.length) parts.push({ title: seg.title, paragraphs: current });
  if (parts.length === 1) return parts;
  return parts.map((part, i) => ({ ...part, title: part.title ? `${part.title} (part ${i + 1})` : null }));
}

/** A title from the first sentence: at most 8 words. */
function titleFrom(text: string, fallback: string): string {
  const sentence = (text.match(/^[^.!?\n]+/)?.[0] ?? '').trim();
  const ws = sentence.split(/\s+/).filter(Boolean);
  if (!ws.length) return fallback;
  const short = ws.slice(0, 8).join(' ').replace(/[,;:\-–—]+$/, '');
  return ws.length > 8 ? `${short}…` : short;
}

const clip = (title: string) => (title.length > MAX_TITLE ? `${title.slice(0, MAX_TITLE - 1)}…` : title);

/** The candidate stories of a text (see the file comment). `fallbackTitle` names untitled parts. */
export function splitIntoStories(text: string, fallbackTitle: string): Candidate[] {
  const { segments, structured } = segment(classify(normalise(text)));
  let parts: Segment[];
  if (structured) {
    parts = [];
    for (const seg of segments) {
      const n = segWords(seg);
      const prev = parts[parts.length - 1];
      // A fragment (a stray heading, a one-line preamble) joins the story before it, or the next one.
      if (n < MIN_WORDS && prev) {
        prev.paragraphs.push(...seg.paragraphs);
        if (!prev.title && seg.title) prev.title = seg.title;
      } else if (n < MIN_WORDS && !prev) {
        if (n > 0 || seg.title) parts.push(seg);
      } else if (prev && segWords(prev) < MIN_WORDS) {
        prev.paragraphs.push(...seg.paragraphs);
        prev.title = seg.title ?? prev.title;
      } else parts.push(seg);
    }
  } else {
    const all = segments.flatMap((s) => s.paragraphs);
    const total = all.reduce((n, p) => n + words(p), 0);
    parts = total > LONG_TEXT_WORDS ? groupParagraphs(all) : [{ title: null, paragraphs: all }];
  }
  const candidates: Candidate[] = [];
  const untitledSeveral = parts.length > 1;
  for (const part of parts.flatMap(capLength)) {
    const content = part.paragraphs.filter(Boolean).join('\n\n');
    const wordCount = words(content);
    if (wordCount === 0) continue;
    const derived = untitledSeveral ? titleFrom(content, `${fallbackTitle} (part ${candidates.length + 1})`) : fallbackTitle;
    candidates.push({ index: candidates.length, title: clip(part.title?.trim() || derived), content, wordCount });
  }
  return candidates;
}

/** A candidate's plain text as story HTML: one <p> per paragraph, line breaks kept, text escaped. */
export function candidateHtml(content: string): string {
  return content
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
}
