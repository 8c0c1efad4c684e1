// Export renderers: one content record in, one file out. Pure functions (no database, no request),
// so each format is tested on its own with a real reader. Documents (pdf, html, docx) are built from
// one block model, so every format shows the same sections in the same order.
// Each format lives in renderers/<format>.ts; the model and its helpers in export.document.ts.
import type { ExportDocument, ExportFormat, ExportOptions, RenderedExport } from './export.document';
import { renderAnki, renderQuizlet } from './renderers/flashcards';
import { renderDocx } from './renderers/docx';
import { renderHtml } from './renderers/html';
import { renderCsv, renderJson } from './renderers/json-csv';
import { renderPdf } from './renderers/pdf';

export * from './export.document';
export * from './renderers/flashcards';
export * from './renderers/docx';
export * from './renderers/html';
export * from './renderers/json-csv';
export * from './renderers/pdf';

/** The one entry point the export service calls. */
export async function renderExport(format: ExportFormat, doc: ExportDocument, options: ExportOptions): Promise<RenderedExport> {
  switch (format) {
    case 'json':
      return renderJson(doc, options);
    case 'csv':
      return renderCsv(doc, options);
    case 'pdf':
      return renderPdf(doc, options);
    case 'html':
      return renderHtml(doc, options);
    case 'docx':
      return renderDocx(doc, options);
    case 'anki':
      return renderAnki(doc);
    case 'quizlet':
      return renderQuizlet(doc);
    default: {
      const never: never = format;
      throw new Error(`unknown export format ${String(never)}`);
    }
  }
}

