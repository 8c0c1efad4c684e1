// zod schemas of the three error bodies, for the `response` map of every route (CONVENTIONS 3).
import { z } from 'zod';

export const coreErrorSchema = z.looseObject({ error: z.string(), details: z.string().optional() });
export const emailErrorSchema = z.looseObject({ error: z.string(), code: z.string(), details: z.record(z.string(), z.unknown()).optional() });
export const toolsErrorSchema = z.looseObject({
  success: z.literal(false),
  error: z.looseObject({ code: z.string(), message: z.string(), details: z.unknown().optional(), field: z.string().optional(), timestamp: z.string() }),
  meta: z.record(z.string(), z.unknown()).optional(),
});

/** The error responses a route may send, keyed by status, for a given error body schema. */
export function errorResponses<S extends z.ZodType, const C extends readonly number[]>(schema: S, codes: C): { [K in C[number]]: S } {
  return Object.fromEntries(codes.map((c) => [c, schema])) as { [K in C[number]]: S };
}
