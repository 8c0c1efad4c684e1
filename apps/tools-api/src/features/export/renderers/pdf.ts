// A PDF from the block model, with the shared text and font handling of @story/pdf.
import { createPdfText, newPdfDocument } from '@story/pdf';
import { CONTENT_TYPES, EXTENSIONS, cleanText, documentBlocks, THEMES, headingScale, type ExportOptions, type ExportDocument, type RenderedExport } from '../export.document';

/** Rendered in memory: Content-Length must be known, and an export is a few pages of text. */
export function renderPdf(doc: ExportDocument, options: ExportOptions): Promise<RenderedExport> {
  const theme = THEMES[options.theme];
  const pdf = newPdfDocument({
    size: options.pageSize === 'a4' ? 'A4' : 'LETTER',
    margin: 56,
    // pdfkit writes non-ASCII document info as UTF-16, so titles keep every script.
    info: { Title: cleanText(doc.title), Subject: `${doc.tool} export`, Creator: 'Family Stories free tools', Keywords: cleanText(doc.seo.keywords.join(', ')) },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  const paintBackground = () => {
    if (!theme.background) return;
    pdf.save().rect(0, 0, pdf.page.width, pdf.page.height).fill(theme.background).restore();
  };
  paintBackground();
  pdf.on('pageAdded', paintBackground);

  // Unicode fonts shared with the book PDF (@story/pdf): every script prints as written.
  const text = createPdfText(pdf, { family: 'sans' });
  const sans = { family: 'sans' } as const;
  const bold = { family: 'sans', bold: true } as const;
  const size = options.fontSize;
  const width = pdf.page.width - pdf.page.margins.left - pdf.page.margins.right;
  for (const block of documentBlocks(doc, options)) {
    switch (block.type) {
      case 'heading':
        pdf.moveDown(block.level === 1 ? 0 : 0.6);
        pdf.fontSize(size * headingScale[block.level]).fillColor(theme.accent);
        text.use(bold).text(block.text, { width });
        pdf.moveDown(0.3);
        break;
      case 'meta':
        pdf.fontSize(size * 0.85).fillColor(theme.muted);
        text.use(sans).text(block.text, { width });
        pdf.moveDown(0.4);
        break;
      case 'field':
        pdf.fontSize(size).fillColor(theme.text);
        text.use(bold).text(`${block.label}: `, { width, continued: block.value.length > 0 });
        if (block.value) text.use(sans).text(block.value, { width });
        pdf.moveDown(0.2);
        break;
      case 'paragraph':
        pdf.fontSize(size).fillColor(theme.text);
        text.use(sans).text(block.text, { width, align: 'left' });
        pdf.moveDown(0.5);
        break;
    }
  }
  pdf.end();
  return done.then((body) => ({ body, contentType: CONTENT_TYPES.pdf, extension: EXTENSIONS.pdf }));
}
