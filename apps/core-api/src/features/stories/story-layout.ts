// Typography and header-footer settings of a story, as the PDF export lays them out. The font list is
// three families (serif, sans, monospaced), drawn with the Unicode fonts of @story/pdf; the familiar
// names map onto the family of the same kind.
import { z } from 'zod';

export const FONT_FAMILIES = {
  Times: 'Times',
  'Times New Roman': 'Times',
  Georgia: 'Times',
  Helvetica: 'Helvetica',
  Arial: 'Helvetica',
  Courier: 'Courier',
  'Courier New': 'Courier',
} as const;
export type FontFamily = keyof typeof FONT_FAMILIES;
export type StandardFamily = (typeof FONT_FAMILIES)[FontFamily];
export const FONT_FAMILY_NAMES = Object.keys(FONT_FAMILIES) as [FontFamily, ...FontFamily[]];

export const typographySchema = z.object({
  fontFamily: z.enum(FONT_FAMILY_NAMES),
  fontSize: z.number().min(8).max(24),
  lineHeight: z.number().min(1).max(2.5),
});
export type Typography = z.infer<typeof typographySchema>;

export const DEFAULT_TYPOGRAPHY: Typography = { fontFamily: 'Times', fontSize: 11, lineHeight: 1.4 };

export const POSITIONS = ['left', 'center', 'right'] as const;
export const PAGE_NUMBER_POSITIONS = ['left', 'center', 'right', 'outside'] as const;

export const headerFooterSchema = z.object({
  /** Running header text; empty means the book title. */
  headerText: z.string().trim().max(100),
  footerText: z.string().trim().max(100),
  showHeader: z.boolean(),
  showFooter: z.boolean(),
  showPageNumbers: z.boolean(),
  headerAlign: z.enum(POSITIONS),
  footerAlign: z.enum(POSITIONS),
  /** outside: left on even pages, right on odd (facing pages of a printed book). */
  pageNumberPosition: z.enum(PAGE_NUMBER_POSITIONS),
});
export type HeaderFooter = z.infer<typeof headerFooterSchema>;

export const DEFAULT_HEADER_FOOTER: HeaderFooter = {
  headerText: '',
  footerText: '',
  showHeader: true,
  showFooter: true,
  showPageNumbers: true,
  headerAlign: 'center',
  footerAlign: 'center',
  pageNumberPosition: 'outside',
};

/** Stored typography (jsonb written by older code or by hand) read defensively: anything invalid falls back to the default. */
export function typographyOf(stored: unknown): Typography {
  const parsed = typographySchema.safeParse(stored);
  return parsed.success ? parsed.data : DEFAULT_TYPOGRAPHY;
}

export function headerFooterOf(stored: unknown): HeaderFooter {
  const parsed = headerFooterSchema.partial().safeParse(stored ?? {});
  return { ...DEFAULT_HEADER_FOOTER, ...(parsed.success ? stripUndefined(parsed.data) : {}) };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
