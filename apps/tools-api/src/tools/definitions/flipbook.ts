// Flipbooks: text laid out into pages (this definition), or an uploaded PDF whose pages are kept in storage
// (features/flipbook). The public page shows them in a page-flip viewer.
import { z } from 'zod';
import { optionalText, wordCount } from '../text';
import { defineTool } from '../tool-definition';

const options = z.object({
  title: z.string().trim().min(1).max(200),
  text: z.string().trim().min(1).max(200_000),
  wordsPerPage: z.number().int().min(30).max(600).default(150),
  theme: z.enum(['classic', 'modern', 'dark']).default('classic'),
  subtitle: optionalText(200),
});
type Options = z.infer<typeof options>;

const page = z.object({ pageNumber: z.number().int().positive(), text: z.string() });
const content = z.object({
  title: z.string().min(1),
  subtitle: z.string().optional(),
  theme: z.string(),
  source: z.enum(['text', 'pdf']),
  pageCount: z.number().int().nonnegative(),
  pages: z.array(page),
});
type Content = z.infer<typeof content>;

/** Paragraphs kept whole where they fit; long ones split at sentence ends. */
export function paginate(text: string, wordsPerPage: number): string[] {
  const paragraphs = text.replace(/\r/g, '').split(/\n\s*\n/).map((p) => p.replace(/\s+/g, ' ').trim()).filter(Boolean);
  const pages: string[] = [];
  let current: string[] = [];
  let count = 0;
  const flush = () => {
    if (current.length) pages.push(current.join('\n\n'));
    current = [];
    count = 0;
  };
  for (const p of paragraphs) {
    const pieces = wordCount(p) <= wordsPerPage ? [p] : (p.match(/[^.!?]+[.!?]*\s*/g) ?? [p]).map((s) => s.trim());
    for (const piece of pieces) {
      const n = wordCount(piece);
      if (count + n > wordsPerPage && count > 0) flush();
      current.push(piece);
      count += n;
    }
    if (pieces.length > 1) flush();
  }
  flush();
  return pages;
}

export const flipbook = defineTool<Options, Content>({
  route: 'flipbook',
  cluster: 'core',
  title: 'PDF Flipbook Maker',
  description: 'Turn a PDF or your text into a page-flip book you can share and embed on any site.',
  sharePrefix: 'fb',
  optionsSchema: options,
  generateOffline(o) {
    const pages = paginate(o.text, o.wordsPerPage).map((text, i) => ({ pageNumber: i + 1, text }));
    return { title: o.title, ...(o.subtitle ? { subtitle: o.subtitle } : {}), theme: o.theme, source: 'text', pageCount: pages.length, pages };
  },
  llm: {
    system: 'You lay out text into book pages without changing the words. Answer with JSON only.',
    user: (o) => `Split this text into pages of about ${o.wordsPerPage} words for a flipbook titled "${o.title}". Return {"title", "theme": "${o.theme}", "source": "text", "pageCount", "pages": [{"pageNumber", "text"}]}.\n\n${o.text.slice(0, 20_000)}`,
    contentSchema: content,
  },
  seo: (c) => ({
    title: `${c.title}: a ${c.pageCount}-page flipbook`,
    description: `Read "${c.title}" as a page-flip book (${c.pageCount} ${c.pageCount === 1 ? 'page' : 'pages'}). ${c.pages[0]?.text ?? ''}`,
    keywords: ['flipbook', 'pdf flipbook', 'page flip book', 'online book viewer', 'digital booklet', c.title],
  }),
  exportRows: (c) => [['Pages', String(c.pageCount)], ...c.pages.map((p) => [`Page ${p.pageNumber}`, p.text] as [string, string])],
  category: (o) => o.theme,
  summary: (c) => c.pages[0]?.text.slice(0, 200) ?? c.title,
});
