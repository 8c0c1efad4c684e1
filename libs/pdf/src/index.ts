// Every PDF of the platform, typeset by Typst (typst.ts) with fonts shipped in npm (fonts.ts), checked
// against the fonts before typesetting (glyph-coverage.ts) and preflighted after (preflight.ts): book
// interiors and covers with print geometry (book.ts, print-geometry.ts), and plain documents for the
// tools exports and the data export (document.ts).
export * from './book';
export * from './document';
export * from './fonts';
export * from './glyph-coverage';
export * from './pdf-inspect';
export * from './preflight';
export * from './print-geometry';
export * from './text-language';
export * from './typst';
