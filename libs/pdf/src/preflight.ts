// The preflight every export passes before its job is completed (CONTRACTS §11): fonts embedded and
// subset and all of them ours, page boxes present and consistent with the print geometry, no character
// without a glyph (checked against the fonts before typesetting, and in the finished file no glyph 0
// drawn), and the page count within what the book may have. The report is stored on the job as it is;
// a failed one fails the job with its problems as the reason.
import { bundledPostscriptNames, type MissingCharacter } from './glyph-coverage';
import { inspectPdf, type Box } from './pdf-inspect';

export interface PreflightExpectations {
  /** The TrimBox every page must have (points); absent for documents that are not printed (no boxes checked). */
  trimBox?: Box;
  /** The BleedBox (and MediaBox) every page must have; the TrimBox when there is no bleed. */
  bleedBox?: Box;
  /** Characters the fonts could not draw, found before typesetting (glyph-coverage.ts). */
  missingCharacters?: readonly MissingCharacter[];
  /** The most pages allowed (the tier's allowance), with the sentence explaining it for a page count. */
  maxPages?: PageAllowance | null;
  /** What the document is, for the sentences (the interior, the cover, the document). */
  label?: string;
}

export interface PageAllowance {
  pages: number;
  /** The sentence(s) after "The interior has N pages.", e.g. the tier and the tier that allows more. */
  reason: (pages: number) => string;
}

export interface PreflightReport {
  passed: boolean;
  checkedAt: string;
  pages: number;
  fonts: { name: string; embedded: boolean; subset: boolean; bundled: boolean }[];
  boxes: { mediaBox: Box | null; trimBox: Box | null; bleedBox: Box | null; consistent: boolean };
  missingCharacters: { codePoint: string; name: string; char: string; count: number }[];
  notdefGlyphs: number;
  maxPages: number | null;
  problems: string[];
}

const CLOSE = 0.01;
const sameBox = (a: Box | null, b: Box | null | undefined) => !!a && !!b && a.every((v, i) => Math.abs(v - b[i]!) <= CLOSE);
const inside = (inner: Box, outer: Box) => inner[0] >= outer[0] - CLOSE && inner[1] >= outer[1] - CLOSE && inner[2] <= outer[2] + CLOSE && inner[3] <= outer[3] + CLOSE;
const show = (b: Box | null) => (b ? `[${b.map((v) => Math.round(v * 100) / 100).join(' ')}]` : 'missing');

export async function preflightPdf(pdf: Uint8Array, expect: PreflightExpectations): Promise<PreflightReport> {
  const report = await inspectPdf(pdf);
  const problems: string[] = [];
  const ours = bundledPostscriptNames();

  const fonts = report.fonts.map((f) => ({ name: f.name, embedded: f.embedded, subset: f.subset, bundled: ours.has(f.postscriptName) }));
  for (const f of fonts) {
    if (!f.embedded) problems.push(`The font ${f.name} is not embedded.`);
    if (!f.subset) problems.push(`The font ${f.name} is embedded whole, not as a subset.`);
    if (!f.bundled) problems.push(`The font ${f.name} is not one of the bundled fonts.`);
  }
  const notdefGlyphs = report.fonts.reduce((sum, f) => sum + f.notdefGlyphs, 0);
  for (const f of report.fonts) if (f.notdefGlyphs > 0) problems.push(`${f.notdefGlyphs} glyph(s) of ${f.name} are empty boxes (.notdef).`);

  const missing = expect.missingCharacters ?? [];
  if (missing.length) problems.push(`${missing.length} character(s) have no glyph in the bundled fonts: ${missing.slice(0, 10).map((m) => `${m.codePoint} ${m.name}`).join(', ')}.`);

  const trim = expect.trimBox;
  const bleed = expect.bleedBox ?? trim;
  let consistent = true;
  if (trim && bleed) report.pages.forEach((page, i) => {
    const label = `Page ${i + 1}`;
    const ok =
      sameBox(page.trimBox, trim) &&
      sameBox(page.bleedBox, bleed) &&
      sameBox(page.mediaBox, bleed) &&
      !!page.trimBox &&
      !!page.bleedBox &&
      inside(page.trimBox, page.bleedBox);
    if (!ok) {
      if (consistent) problems.push(`${label}: TrimBox ${show(page.trimBox)}, BleedBox ${show(page.bleedBox)}, MediaBox ${show(page.mediaBox)}; expected TrimBox ${show(trim)} inside BleedBox = MediaBox ${show(bleed)}.`);
      consistent = false;
    }
  });
  const label = expect.label ?? 'document';
  if (report.pages.length === 0) problems.push(`The ${label} has no pages.`);

  const max = expect.maxPages ?? null;
  if (max && report.pages.length > max.pages) problems.push(`The ${label} has ${report.pages.length} pages. ${max.reason(report.pages.length)}`);

  const first = report.pages[0];
  return {
    passed: problems.length === 0,
    checkedAt: new Date().toISOString(),
    pages: report.pages.length,
    fonts,
    boxes: { mediaBox: first?.mediaBox ?? null, trimBox: first?.trimBox ?? null, bleedBox: first?.bleedBox ?? null, consistent },
    missingCharacters: missing.map(({ codePoint, name, char, count }) => ({ codePoint, name, char, count })),
    notdefGlyphs,
    maxPages: max?.pages ?? null,
    problems,
  };
}

/** The job's failure reason: the preflight's problems, each a sentence. */
export function preflightFailure(report: PreflightReport): string {
  return report.problems.join(' ');
}
