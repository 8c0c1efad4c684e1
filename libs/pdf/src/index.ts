// Text in PDFs for every script the product meets: Unicode fonts that ship inside npm, embedded and subset
// by pdfkit, chosen per run of text. Used by the book PDF (core-api) and the tools exports (tools-api).
export * from './unicode-text';
export * from './pdf-document';
