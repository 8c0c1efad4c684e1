// The success envelope of spec 002 ({success, data, meta}); errors leave through toolsErrorRenderer in
// the same shape. processingTime is measured from the request's arrival (registerEnvelopeTiming).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorResponses, toolsErrorSchema } from '@story/http';

export interface PaginationMeta {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  hasNext: boolean;
  hasPrev: boolean;
}

export interface RateLimitMeta {
  limit: number;
  remaining: number;
  /** Epoch seconds when the window resets. */
  resetTime: number;
  /** Seconds until a refused caller may try again. */
  retryAfter?: number;
}

export interface EnvelopeMetaInput {
  pagination?: PaginationMeta;
  rateLimit?: RateLimitMeta;
  conversionOpportunity?: boolean;
  [extra: string]: unknown;
}

export interface EnvelopeMeta extends EnvelopeMetaInput {
  timestamp: string;
  requestId: string;
  processingTime: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** performance.now() when the request arrived, for meta.processingTime. */
    toolsStartedAt: number;
  }
}

/** Stamp every request's arrival time (call once on the root instance, before the features). */
export function registerEnvelopeTiming(app: FastifyInstance): void {
  if (!app.hasRequestDecorator('toolsStartedAt')) app.decorateRequest('toolsStartedAt', 0);
  app.addHook('onRequest', async (request) => {
    request.toolsStartedAt = performance.now();
  });
}

/** Milliseconds since the request arrived (rounded to 0.1 ms). */
export function processingTimeOf(req: FastifyRequest): number {
  return req.toolsStartedAt ? Math.round((performance.now() - req.toolsStartedAt) * 10) / 10 : 0;
}

export function okEnvelope<T>(req: FastifyRequest, data: T, meta: EnvelopeMetaInput = {}): { success: true; data: T; meta: EnvelopeMeta } {
  return { success: true, data, meta: { timestamp: new Date().toISOString(), requestId: String(req.id), processingTime: processingTimeOf(req), ...meta } };
}

export const paginationMetaSchema = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
  hasNext: z.boolean(),
  hasPrev: z.boolean(),
});

export const rateLimitMetaSchema = z.object({
  limit: z.number().int(),
  remaining: z.number().int(),
  resetTime: z.number().int(),
  retryAfter: z.number().int().optional(),
});

export const envelopeMetaSchema = z.looseObject({
  timestamp: z.string(),
  requestId: z.string(),
  processingTime: z.number(),
  pagination: paginationMetaSchema.optional(),
  rateLimit: rateLimitMetaSchema.optional(),
  conversionOpportunity: z.boolean().optional(),
});

/** zod schema of the success envelope around `data`, for route response maps. */
export function envelopeSchema<T extends z.ZodTypeAny>(data: T) {
  return z.object({ success: z.literal(true), data, meta: envelopeMetaSchema });
}

export function paginationMeta(page: number, limit: number, total: number): PaginationMeta {
  const totalPages = total === 0 ? 0 : Math.ceil(total / limit);
  return { page, limit, total, totalPages, hasNext: page < totalPages, hasPrev: page > 1 };
}

/** The error responses of a route, in the tools envelope, keyed by status. */
export function toolsErrors<const C extends readonly number[]>(codes: C) {
  return errorResponses(toolsErrorSchema, codes);
}
