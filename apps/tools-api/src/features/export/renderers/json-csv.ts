// JSON (spec 002's export body) and CSV (two columns, formula-safe cells).
import { CONTENT_TYPES, EXTENSIONS, madeBy, cleanText, exportRows, neutralizeFormula, type ExportOptions, type ExportDocument, type RenderedExport } from '../export.document';

/** Spec 002's JSON export body: {metadata, content, responses (if included), analytics}. */
export function renderJson(doc: ExportDocument, options: ExportOptions): RenderedExport {
  const body = {
    metadata: {
      tool: doc.tool,
      title: doc.title,
      createdAt: doc.createdAt,
      shareCode: doc.shareCode,
      ...(options.includeMetadata
        ? { id: doc.id, updatedAt: doc.updatedAt, seoTitle: doc.seo.title, seoDescription: doc.seo.description, keywords: doc.seo.keywords, aiModel: doc.ai.model, isAiGenerated: doc.ai.isAiGenerated, madeBy: madeBy(doc.ai) }
        : {}),
    },
    content: doc.content,
    ...(options.includeResponses ? { responses: doc.responses ?? [] } : {}),
    analytics: doc.analytics,
  };
  return { body: Buffer.from(JSON.stringify(body, null, 2), 'utf8'), contentType: CONTENT_TYPES.json, extension: EXTENSIONS.json };
}

/** RFC 4180: quote a field holding a comma, quote, CR or LF; double the quotes inside. */
export function csvField(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

export function renderCsv(doc: ExportDocument, options: ExportOptions): RenderedExport {
  const lines = [['Field', 'Value'], ...exportRows(doc, options)].map((row) => row.map((cell) => csvField(neutralizeFormula(cleanText(cell)))).join(','));
  // RFC 4180 records end with CRLF, the last one included.
  return { body: Buffer.from(lines.join('\r\n') + '\r\n', 'utf8'), contentType: CONTENT_TYPES.csv, extension: EXTENSIONS.csv };
}
