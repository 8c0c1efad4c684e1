// Print geometry of book exports (CONTRACTS §11): trim sizes, the interior's margins with a gutter that
// grows with the page count, the cover spread (back, spine, front) with its bleed, and the spine width
// from the page count and the paper. Everything in PDF points (1/72 inch) unless a name says inches.

export const POINTS_PER_INCH = 72;

/** Trim sizes a book may have (width x height, inches): CONTRACTS §11's five and the two more print services offer. */
export const TRIM_SIZES_INCHES = {
  '5x8': [5, 8],
  '5.25x8': [5.25, 8],
  '5.5x8.5': [5.5, 8.5],
  '6x9': [6, 9],
  '7x10': [7, 10],
  '8x10': [8, 10],
  '8.5x11': [8.5, 11],
} as const satisfies Record<string, readonly [number, number]>;
export type PrintTrimSize = keyof typeof TRIM_SIZES_INCHES;

export const PAPERS = ['white', 'cream'] as const;
export type Paper = (typeof PAPERS)[number];

/** Thickness of one interior page (inches), as the print services compute spines (CONTRACTS §11). */
export const PAGE_THICKNESS_INCHES: Readonly<Record<Paper, number>> = { white: 0.002252, cream: 0.0025 };

/** Bleed on every outer edge of the cover (inches). */
export const COVER_BLEED_INCHES = 0.125;
/** Spine text only from this many interior pages (a thinner spine cannot carry legible type). */
export const SPINE_TEXT_MIN_PAGES = 80;
/**
 * The most interior pages a book may have: the thickest paperback the common print-on-demand services
 * bind (828 pages on white paper). A longer book fails with that reason instead of a PDF no one can print.
 */
export const MAX_INTERIOR_PAGES = 828;

export function isTrimSize(value: string): value is PrintTrimSize {
  return Object.hasOwn(TRIM_SIZES_INCHES, value);
}

/** [width, height] of a trim size in points; throws on an unknown one (callers refuse it first). */
export function trimSizePoints(trimSize: string): [number, number] {
  if (!isTrimSize(trimSize)) throw new Error(`unknown trim size ${trimSize}`);
  const [w, h] = TRIM_SIZES_INCHES[trimSize];
  return [w * POINTS_PER_INCH, h * POINTS_PER_INCH];
}

/** The inside margin for a page count: 0.375 in up to 150 pages, 0.5 to 300, 0.625 to 500, 0.75 beyond. */
export function gutterInches(pages: number): number {
  if (pages <= 150) return 0.375;
  if (pages <= 300) return 0.5;
  if (pages <= 500) return 0.625;
  return 0.75;
}

export interface InteriorMargins {
  /** Inches. */
  inside: number;
  outside: number;
  top: number;
  bottom: number;
}

/**
 * Margins of an interior page: the gutter for the page count plus what the template asks for beyond it
 * (never less than CONTRACTS §11's minimums: 0.5 in outside, top and bottom).
 */
export function interiorMargins(pages: number, trimSize: string, wanted: Partial<InteriorMargins> = {}): InteriorMargins {
  const [w] = isTrimSize(trimSize) ? TRIM_SIZES_INCHES[trimSize] : [6];
  // Larger trims read better with wider outer margins; 0.625 in at 6x9.
  const outside = Math.max(0.5, wanted.outside ?? (w >= 7 ? 0.75 : 0.625));
  const top = Math.max(0.5, wanted.top ?? 0.75);
  const bottom = Math.max(0.5, wanted.bottom ?? 0.75);
  const inside = Math.max(gutterInches(pages), wanted.inside ?? 0);
  return { inside, outside, top, bottom };
}

/** Spine width (inches) for an interior page count on a paper. */
export function spineWidthInches(pages: number, paper: Paper): number {
  return pages * PAGE_THICKNESS_INCHES[paper];
}

export interface CoverGeometry {
  /** Points. */
  trimWidth: number;
  trimHeight: number;
  spineWidth: number;
  bleed: number;
  /** The whole sheet: MediaBox = BleedBox. */
  mediaWidth: number;
  mediaHeight: number;
  /** [x0, y0, x1, y1] in PDF user space (origin bottom left). */
  trimBox: [number, number, number, number];
  bleedBox: [number, number, number, number];
  spineText: boolean;
  interiorPages: number;
  paper: Paper;
}

/** The cover spread of CONTRACTS §11: TrimBox = (2 x trim width + spine) x trim height, grown by the bleed. */
export function coverGeometry(trimSize: string, interiorPages: number, paper: Paper): CoverGeometry {
  const [trimWidth, trimHeight] = trimSizePoints(trimSize);
  const spineWidth = spineWidthInches(interiorPages, paper) * POINTS_PER_INCH;
  const bleed = COVER_BLEED_INCHES * POINTS_PER_INCH;
  const mediaWidth = 2 * trimWidth + spineWidth + 2 * bleed;
  const mediaHeight = trimHeight + 2 * bleed;
  return {
    trimWidth,
    trimHeight,
    spineWidth,
    bleed,
    mediaWidth,
    mediaHeight,
    trimBox: [bleed, bleed, mediaWidth - bleed, mediaHeight - bleed],
    bleedBox: [0, 0, mediaWidth, mediaHeight],
    spineText: interiorPages >= SPINE_TEXT_MIN_PAGES,
    interiorPages,
    paper,
  };
}
