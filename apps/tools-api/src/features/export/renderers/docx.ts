// A Word document from the block model.
import type * as Docx from 'docx';
import type { TextRun } from 'docx';
import { CONTENT_TYPES, EXTENSIONS, cleanText, documentBlocks, THEMES, headingScale, type ExportOptions, type ExportDocument, type RenderedExport } from '../export.document';

/** Page sizes in twentieths of a point, as Word stores them. */
const DOCX_PAGE = { a4: { width: 11906, height: 16838 }, letter: { width: 12240, height: 15840 } } as const;
const hex = (color: string) => color.replace('#', '');

// docx loads at the first DOCX export, not at start.
let docx: typeof Docx | undefined;
const loadDocx = () => (docx ??= require('docx') as typeof Docx);

const runs = (text: string, extra: { bold?: boolean; color?: string; size?: number } = {}): TextRun[] =>
  text.split(/\r?\n/).map((line, i) => new (loadDocx().TextRun)({ text: line, break: i > 0 ? 1 : undefined, ...extra }));

export async function renderDocx(doc: ExportDocument, options: ExportOptions): Promise<RenderedExport> {
  const { AlignmentType, Document, HeadingLevel, Packer, Paragraph, TextRun } = loadDocx();
  const theme = THEMES[options.theme];
  const half = (pt: number) => Math.round(pt * 2); // docx sizes are half-points
  const headingStyle = { 1: HeadingLevel.HEADING_1, 2: HeadingLevel.HEADING_2, 3: HeadingLevel.HEADING_3 } as const;
  const children = documentBlocks(doc, options).map((block) => {
    switch (block.type) {
      case 'heading':
        return new Paragraph({
          heading: headingStyle[block.level],
          children: runs(block.text, { bold: true, color: hex(theme.accent), size: half(options.fontSize * headingScale[block.level]) }),
          spacing: { before: 240, after: 120 },
        });
      case 'meta':
        return new Paragraph({ children: runs(block.text, { color: hex(theme.muted), size: half(options.fontSize * 0.85) }), spacing: { after: 160 } });
      case 'field':
        return new Paragraph({ children: [new TextRun({ text: `${block.label}: `, bold: true }), ...runs(block.value)], spacing: { after: 80 } });
      case 'paragraph':
        return new Paragraph({ children: runs(block.text), alignment: AlignmentType.LEFT, spacing: { after: 160 } });
    }
  });
  const document = new Document({
    title: cleanText(doc.title),
    subject: `${doc.tool} export`,
    creator: 'Family Stories free tools',
    keywords: doc.seo.keywords.join(', '),
    description: doc.seo.description ?? undefined,
    ...(theme.background ? { background: { color: hex(theme.background) } } : {}),
    styles: { default: { document: { run: { size: half(options.fontSize), color: hex(theme.text), font: 'Calibri' } } } },
    sections: [{ properties: { page: { size: DOCX_PAGE[options.pageSize] } }, children }],
  });
  const body = await Packer.toBuffer(document);
  return { body, contentType: CONTENT_TYPES.docx, extension: EXTENSIONS.docx };
}

