// A PDF from the block model, typeset by @story/pdf (Typst with the bundled Noto fonts): the same engine,
// fonts and glyph check as the book PDFs, so every script prints as written.
import { typesetDocument, type DocumentBlock, type MissingCharacter } from '@story/pdf';
import { CONTENT_TYPES, EXTENSIONS, cleanText, documentBlocks, THEMES, type ExportOptions, type ExportDocument, type RenderedExport } from '../export.document';

/** The content holds characters no bundled font draws: the PDF is refused (other formats still work). */
export class UnprintableTextError extends Error {
  constructor(
    message: string,
    readonly missing: MissingCharacter[],
  ) {
    super(message);
    this.name = 'UnprintableTextError';
  }
}

const plain = (text: string) => [{ text, bold: false, italic: false }];

export async function renderPdf(doc: ExportDocument, options: ExportOptions): Promise<RenderedExport> {
  const theme = THEMES[options.theme];
  const blocks: DocumentBlock[] = documentBlocks(doc, options).map((block) => {
    switch (block.type) {
      case 'heading':
        return { type: 'heading', level: block.level, text: block.text };
      case 'meta':
        return { type: 'meta', text: block.text };
      case 'field':
        return { type: 'field', label: block.label, value: block.value };
      case 'paragraph':
        return { type: 'paragraph', runs: plain(block.text) };
    }
  });
  const result = await typesetDocument({
    title: cleanText(doc.title),
    authors: ['Family Stories free tools'],
    keywords: doc.seo.keywords.map(cleanText),
    paper: options.pageSize === 'a4' ? 'a4' : 'us-letter',
    margin: 56,
    size: options.fontSize,
    // Noto Serif: Noto Sans draws some Vietnamese letters as a shared base glyph plus a mark, which only
    // readers honouring ActualText (MuPDF, Acrobat, poppler; not pdf.js) copy back correctly.
    style: 'serif',
    colors: { background: theme.background, text: theme.text, muted: theme.muted, accent: theme.accent },
    blocks,
  });
  if (!result.ok) throw new UnprintableTextError(result.reason, result.missing);
  return { body: result.pdf, contentType: CONTENT_TYPES.pdf, extension: EXTENSIONS.pdf };
}
