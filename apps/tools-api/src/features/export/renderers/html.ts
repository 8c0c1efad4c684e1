// A standalone HTML document from the block model: every user string escaped, themed, no scripts.
import { escapeHtml } from '@story/http';
import { CONTENT_TYPES, EXTENSIONS, cleanText, documentBlocks, THEMES, type ExportOptions, type ExportDocument, type RenderedExport } from '../export.document';


const htmlText = (value: string) => escapeHtml(value).replace(/\r?\n/g, '<br>');

export function renderHtml(doc: ExportDocument, options: ExportOptions): RenderedExport {
  const theme = THEMES[options.theme];
  const body = documentBlocks(doc, options)
    .map((block) => {
      switch (block.type) {
        case 'heading':
          return `<h${block.level}>${htmlText(block.text)}</h${block.level}>`;
        case 'meta':
          return `<p class="meta">${htmlText(block.text)}</p>`;
        case 'field':
          return `<p class="field"><strong>${htmlText(block.label)}:</strong> ${htmlText(block.value)}</p>`;
        case 'paragraph':
          return `<p>${htmlText(block.text)}</p>`;
      }
    })
    .join('\n');
  // A standalone file: inline styles only, and a policy that lets it run nothing if opened in a browser.
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="generator" content="Family Stories free tools">
<title>${escapeHtml(cleanText(doc.title))}</title>
<style>
@page { size: ${options.pageSize === 'a4' ? 'A4' : 'letter'}; margin: 2cm; }
body { margin: 0; background: ${theme.background ?? '#FFFFFF'}; color: ${theme.text}; font: ${options.fontSize}pt/1.5 Georgia, 'Times New Roman', serif; }
main { max-width: 46em; margin: 0 auto; padding: 2em 1.5em; }
h1, h2, h3 { font-family: Helvetica, Arial, sans-serif; color: ${theme.accent}; line-height: 1.25; }
h2 { border-bottom: 1px solid ${theme.rule}; padding-bottom: .2em; }
.meta { color: ${theme.muted}; font-size: .85em; }
.field strong { font-family: Helvetica, Arial, sans-serif; }
</style>
</head>
<body class="theme-${options.theme} template-${options.template}">
<main>
${body}
</main>
</body>
</html>
`;
  return { body: Buffer.from(html, 'utf8'), contentType: CONTENT_TYPES.html, extension: EXTENSIONS.html };
}
