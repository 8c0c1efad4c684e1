// A story as a standalone web page (spec 000: "downloads as a readable web page"; archive: "offline pages
// using the book's font families with a generic serif fallback, loading nothing from the internet"). The
// page carries its own style, no script, no link, no image, and a Content-Security-Policy that forbids any
// fetch, so it reads the same in 30 years from a folder on a disk. `lang` and `dir` come from the story's
// own text (a Hebrew story reads right to left, an Arabic paragraph in an English story too), so browsers
// pick the right fonts installed on the reader's machine, hyphenate and lay out each paragraph's direction.
import { escapeHtml } from '@story/http';
import { dominantDirection, dominantScript, languageOf } from '@story/pdf';
import { plainText, sanitizeContent } from '../stories/story-content';
import { typographyOf } from '../stories/story-layout';

export interface StoryPageInput {
  title: string;
  content: string | null;
  responseText: string | null;
  prompt: string | null;
  typography: unknown;
  bookTitle: string | null;
  /** Shown under the title, e.g. the storyteller's calendar date. */
  dateLine: string;
  storytellerName: string;
  /** The language of the story's book, when it is in one (the guess when the text is too short to tell). */
  bookLanguage?: string | null;
}

/** Font stacks by the story's family (the book's), always ending in a generic family that needs no file. */
const STACKS: Record<string, string> = {
  Times: "'Times New Roman', Times, Georgia, serif",
  Helvetica: 'Helvetica, Arial, sans-serif',
  Courier: "'Courier New', Courier, monospace",
};
const FAMILY_OF: Record<string, string> = {
  Times: 'Times', 'Times New Roman': 'Times', Georgia: 'Times', Helvetica: 'Helvetica', Arial: 'Helvetica', Courier: 'Courier', 'Courier New': 'Courier',
};

/**
 * Fonts a reader's machine commonly has for scripts the book's Latin families lack, named before the
 * generic fallback (nothing is downloaded: the page loads no font file).
 */
const SCRIPT_FONTS: Record<string, string> = {
  Arabic: "'Noto Naskh Arabic', 'Scheherazade New', 'Amiri', 'Geeza Pro', 'Traditional Arabic'",
  Hebrew: "'Noto Serif Hebrew', 'David', 'Times New Roman'",
  Devanagari: "'Noto Serif Devanagari', 'Kokila', 'Mangal'",
  Han: "'Noto Serif SC', 'Noto Serif CJK SC', 'Songti SC', 'SimSun'",
  Kana: "'Noto Serif JP', 'Noto Serif CJK JP', 'Hiragino Mincho ProN', 'Yu Mincho'",
  Hangul: "'Noto Serif KR', 'Noto Serif CJK KR', 'AppleMyungjo', 'Batang'",
};

export function storyPage(input: StoryPageInput): string {
  const typography = typographyOf(input.typography);
  const stack = STACKS[FAMILY_OF[typography.fontFamily] ?? 'Times'] ?? STACKS['Times']!;
  const text = `${input.title}\n${input.content ? plainText(sanitizeContent(input.content)) : (input.responseText ?? '')}`;
  const lang = languageOf(text, input.bookLanguage ?? null);
  const dir = dominantDirection(text);
  const script = dominantScript(text);
  const scriptFonts = script && SCRIPT_FONTS[script] ? `${SCRIPT_FONTS[script]}, ` : '';
  const [family, generic] = [stack.replace(/, (serif|sans-serif|monospace)$/, ''), /, (sans-serif|monospace)$/.exec(stack)?.[1]];
  // A generic serif fallback is always last, whatever the family (spec: "with a generic serif fallback").
  const fonts = `${family}, ${scriptFonts}${generic ? `${generic}, ` : ''}serif`;
  const body = input.content
    ? sanitizeContent(input.content)
    : (input.responseText ?? '')
        .split(/\n{2,}/)
        .map((p) => p.trim())
        .filter(Boolean)
        .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
        .join('\n');
  const prompt = !input.content && input.prompt ? `<p class="prompt">${escapeHtml(input.prompt)}</p>\n` : '';
  const book = input.bookTitle ? ` · from the book “${escapeHtml(input.bookTitle)}”` : '';
  return `<!DOCTYPE html>
<html lang="${escapeHtml(lang)}" dir="${dir}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)}</title>
<style>
body { font-family: ${fonts}; font-size: ${Math.round(typography.fontSize * 1.45)}px; line-height: ${typography.lineHeight + 0.2}; max-width: 40em; margin: 2em auto; padding: 0 1em; color: #222; background: #fff; }
h1 { font-size: 1.8em; line-height: 1.2; margin-bottom: 0.2em; }
.meta { color: #666; font-size: 0.85em; margin-top: 0; }
.prompt { font-style: italic; color: #444; }
p, li, h1 { unicode-bidi: plaintext; }
</style>
</head>
<body>
<article>
<h1>${escapeHtml(input.title)}</h1>
<p class="meta">${escapeHtml(input.storytellerName)} · ${escapeHtml(input.dateLine)}${book}</p>
${prompt}${body}
</article>
</body>
</html>
`;
}
