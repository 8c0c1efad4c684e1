// Server-rendered HTML of the public pages: every user string escaped, SEO metadata (title, description,
// canonical, Open Graph, JSON-LD), noindex for private items. No scripts: the flipbook viewer flips pages
// with CSS radio buttons, so the pages need no script-src at all.

import { escapeHtml } from '@story/http';

/** JSON for a <script type="application/ld+json"> block: '<' escaped so no string can close the element. */
export const jsonLd = (data: unknown) => JSON.stringify(data).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

const humanKey = (key: string) => key.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[-_]/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** Any generated content as nested lists: strings as paragraphs, arrays as ordered lists, objects as definition lists. */
export function renderValue(value: unknown, depth = 0): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string') return `<p>${escapeHtml(value).replace(/\n\n/g, '</p><p>').replace(/\n/g, '<br>')}</p>`;
  if (typeof value === 'number' || typeof value === 'boolean') return `<p>${escapeHtml(value)}</p>`;
  if (Array.isArray(value)) return `<ol>${value.map((v) => `<li>${renderValue(v, depth + 1)}</li>`).join('')}</ol>`;
  if (typeof value === 'object' && depth < 6) {
    const entries = Object.entries(value as Record<string, unknown>).filter(([k, v]) => (depth > 0 || k !== 'title') && k !== 'id' && v !== undefined);
    return `<dl>${entries.map(([k, v]) => `<dt>${escapeHtml(humanKey(k))}</dt><dd>${renderValue(v, depth + 1)}</dd>`).join('')}</dl>`;
  }
  return '';
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * A book-blurb item as a reader wants it: the book, then each version under its own heading with its
 * word count (the recommended one marked), then the performance analysis as a table and its notes.
 */
export function renderBookBlurb(content: Record<string, unknown>): string {
  const versions = Array.isArray(content['versions']) ? (content['versions'] as Record<string, unknown>[]) : [];
  const analysis = (content['performanceAnalysis'] ?? {}) as Record<string, unknown>;
  const recommended = str(analysis['recommended']);
  const scores = Array.isArray(analysis['scores']) ? (analysis['scores'] as Record<string, unknown>[]) : [];
  const notes = Array.isArray(analysis['notes']) ? (analysis['notes'] as unknown[]).map(str).filter(Boolean) : [];
  const label = (type: string) => humanKey(type);
  const about = [str(content['bookTitle']) && `<strong>${escapeHtml(content['bookTitle'])}</strong>`, str(content['genre']) && escapeHtml(humanKey(str(content['genre'])))].filter(Boolean).join(' · ');
  const blocks = versions.map((v) => {
    const type = str(v['type']);
    const words = num(v['wordCount']);
    const mark = type && type === recommended ? ' <span class="badge">Recommended</span>' : '';
    return `<section class="blurb"><h2>${escapeHtml(label(type) || 'Blurb')}${mark}</h2>${renderValue(str(v['blurb']), 1)}${words === null ? '' : `<p class="meta">${words} words</p>`}</section>`;
  });
  const table = scores.length
    ? `<table class="scores"><caption>Scores out of 10</caption><thead><tr><th>Version</th><th>Hook</th><th>Clarity</th><th>Emotional pull</th><th>Overall</th></tr></thead><tbody>${scores
        .map((s) => `<tr><th scope="row">${escapeHtml(label(str(s['type'])))}</th>${['hookStrength', 'clarity', 'emotionalPull', 'overall'].map((k) => `<td>${escapeHtml(num(s[k]) ?? '')}</td>`).join('')}</tr>`)
        .join('')}</tbody></table>`
    : '';
  const analysisBlock = table || notes.length ? `<section class="analysis"><h2>Performance analysis</h2>${table}${notes.length ? `<ul>${notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>` : ''}</section>` : '';
  return `${about ? `<p class="book">${about}</p>` : ''}${blocks.join('')}${analysisBlock}`;
}

/** The "embed this" offer of a share page: the embed URL and the iframe to paste. */
export function renderEmbedOffer(embedUrl: string, title: string): string {
  const snippet = `<iframe src="${embedUrl}" title="${title.replace(/"/g, '&quot;')}" width="100%" height="600" style="border:0" loading="lazy"></iframe>`;
  return `<section class="embed-offer"><h2>Embed it</h2><p>Show this on your own site: <a href="${escapeHtml(embedUrl)}" rel="nofollow">embed link</a>, or paste this code:</p><pre><code>${escapeHtml(snippet)}</code></pre></section>`;
}

export function renderFlashcards(content: Record<string, unknown>): string {
  const cards = Array.isArray(content['cards']) ? (content['cards'] as { front?: unknown; back?: unknown }[]) : [];
  return `<table class="cards"><thead><tr><th>Front</th><th>Back</th></tr></thead><tbody>${cards
    .map((c) => `<tr><td>${escapeHtml(c.front)}</td><td>${escapeHtml(c.back)}</td></tr>`)
    .join('')}</tbody></table>`;
}

/** A CSS-only page-flip viewer: one radio per page, labels as the previous/next controls. */
export function renderFlipbook(content: Record<string, unknown>, pdfUrl: string | null): string {
  const pages = Array.isArray(content['pages']) ? (content['pages'] as { pageNumber?: unknown; text?: unknown }[]) : [];
  const radios = pages.map((_, i) => `<input type="radio" name="fb" id="fb-${i + 1}" class="fb-radio"${i === 0 ? ' checked' : ''}>`).join('');
  const sheets = pages
    .map((p, i) => {
      const prev = i > 0 ? `<label for="fb-${i}" class="fb-prev">&larr; Previous</label>` : '<span></span>';
      const next = i < pages.length - 1 ? `<label for="fb-${i + 2}" class="fb-next">Next &rarr;</label>` : '<span></span>';
      return `<section class="fb-page" data-page="${i + 1}"><div class="fb-text">${renderValue(String(p.text ?? ''))}</div><nav class="fb-nav">${prev}<span>Page ${i + 1} of ${pages.length}</span>${next}</nav></section>`;
    })
    .join('');
  // Each radio shows the page that follows its position among the siblings.
  const rules = pages.map((_, i) => `#fb-${i + 1}:checked ~ .fb-pages .fb-page[data-page="${i + 1}"]{display:block;animation:flip .45s ease}`).join('');
  const pdf = pdfUrl ? `<p class="fb-pdf"><a href="${escapeHtml(pdfUrl)}">Open the original PDF</a></p><iframe class="fb-frame" src="${escapeHtml(pdfUrl)}" title="PDF"></iframe>` : '';
  return `<style>.fb-radio{display:none}.fb-page{display:none}${rules}@keyframes flip{from{transform:perspective(900px) rotateY(-70deg);opacity:.3}to{transform:none;opacity:1}}</style><div class="flipbook">${radios}<div class="fb-pages">${sheets}</div></div>${pdf}`;
}

export interface PageInput {
  title: string;
  description: string;
  canonical: string;
  keywords?: string[];
  noindex?: boolean;
  ogType?: string;
  jsonLd?: unknown;
  body: string;
  embed?: boolean;
}

const STYLE = `body{font:17px/1.6 Georgia,serif;max-width:46rem;margin:0 auto;padding:1.5rem;color:#222;background:#fffdf8}
h1{font-size:1.8rem;line-height:1.2}a{color:#7a3e0a}dt{font-weight:bold;margin-top:.6rem}dd{margin-left:1rem}
.meta{color:#666;font-size:.9rem}.cards{border-collapse:collapse;width:100%}.cards td,.cards th{border:1px solid #ddd;padding:.5rem;vertical-align:top}
.fb-page{border:1px solid #d9cbb0;background:#fff;box-shadow:0 2px 10px #0002;padding:2rem;min-height:22rem}.fb-nav{display:flex;justify-content:space-between;margin-top:1rem}
.fb-nav label{cursor:pointer;color:#7a3e0a;text-decoration:underline}.fb-frame{width:100%;height:30rem;border:1px solid #ddd;margin-top:1rem}
ul.items{padding-left:1.2rem}ul.items li{margin:.4rem 0}footer{margin-top:3rem;color:#888;font-size:.85rem}
.badge{font-size:.75rem;background:#7a3e0a;color:#fff;border-radius:.3rem;padding:.1rem .4rem;vertical-align:middle}
.scores{border-collapse:collapse;width:100%}.scores td,.scores th{border:1px solid #ddd;padding:.4rem;text-align:left}
pre{white-space:pre-wrap;word-break:break-all;background:#f4efe6;padding:.6rem;font-size:.85rem}`;

export function renderPage(p: PageInput): string {
  const robots = p.noindex ? '<meta name="robots" content="noindex, nofollow">' : '<meta name="robots" content="index, follow">';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(p.title)}</title>
<meta name="description" content="${escapeHtml(p.description)}">
${p.keywords?.length ? `<meta name="keywords" content="${escapeHtml(p.keywords.join(', '))}">` : ''}
${robots}
<link rel="canonical" href="${escapeHtml(p.canonical)}">
<meta property="og:title" content="${escapeHtml(p.title)}">
<meta property="og:description" content="${escapeHtml(p.description)}">
<meta property="og:type" content="${escapeHtml(p.ogType ?? 'website')}">
<meta property="og:url" content="${escapeHtml(p.canonical)}">
<meta property="og:site_name" content="Family Stories">
<meta name="twitter:card" content="summary">
${p.jsonLd ? `<script type="application/ld+json">${jsonLd(p.jsonLd)}</script>` : ''}
<style>${STYLE}</style></head>
<body${p.embed ? ' class="embed"' : ''}><main>${p.body}</main>${p.embed ? '' : '<footer>Made with the Family Stories free writing tools.</footer>'}</body></html>`;
}

/** Page CSP: no scripts, inline styles only, PDF frames from this origin; embeds may be framed anywhere. */
export function pageHeaders(embed: boolean): Record<string, string> {
  const ancestors = embed ? '*' : "'none'";
  return {
    'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors ${ancestors}`,
    ...(embed ? {} : { 'X-Frame-Options': 'DENY' }),
    'Cache-Control': 'public, max-age=60',
  };
}
