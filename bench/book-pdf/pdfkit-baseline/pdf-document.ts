// pdfkit loads on the first PDF, not when a service starts: it costs the start of every service that can
// render a PDF most of a second, and most processes render none for a long time.
import type PDFDocument from 'pdfkit';

let pdfkit: typeof PDFDocument | undefined;

/** A new pdfkit document (pdfkit itself is required on the first call). */
export function newPdfDocument(options?: PDFKit.PDFDocumentOptions): PDFKit.PDFDocument {
  pdfkit ??= require('pdfkit') as typeof PDFDocument;
  return new pdfkit(options);
}
