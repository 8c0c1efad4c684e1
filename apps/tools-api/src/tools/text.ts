// Small text helpers shared by the offline generators.
import { z } from 'zod';

export const cap = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);
export const titleCase = (s: string) =>
  s
    .split(/[\s-]+/)
    .filter(Boolean)
    .map((w, i) => (i > 0 && ['a', 'an', 'the', 'of', 'and', 'in', 'on', 'to', 'for', 'at'].includes(w.toLowerCase()) ? w.toLowerCase() : cap(w.toLowerCase())))
    .join(' ');
export const humanize = (slug: string) => slug.replace(/-/g, ' ');
export const listOf = (items: readonly string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
export const wordCount = (s: string) => (s.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).length;

/** Fill {name} placeholders; {Name} capitalises the value. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_m, key: string) => {
    const lower = key[0]!.toLowerCase() + key.slice(1);
    const value = values[lower] ?? values[key] ?? '';
    return key[0] === key[0]!.toUpperCase() && key[0] !== key[0]!.toLowerCase() ? cap(value) : value;
  });
}

/** Optional visitor text: trimmed, bounded, empty becomes undefined. */
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((v) => (v ? v : undefined));

export const stringList = (maxItems: number, maxLength: number) => z.array(z.string().trim().min(1).max(maxLength)).max(maxItems);
