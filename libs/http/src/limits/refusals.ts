// The 429 answers of every limit, as AppError values each service's renderer puts in its own shape
// (core {error, details}, email {error, code: RATE_LIMITED}, tools envelope). Retry-After is in seconds.
import { AppError } from '../errors';
import type { LimitSpec } from './limit-table';

/** What a response reports about a window: meta.rateLimit of spec 002. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Epoch seconds when the window resets. */
  resetTime: number;
  /** Seconds until a refused caller may try again. */
  retryAfter?: number;
}

/** A short-window refusal (@fastify/rate-limit): details {limit, retryAfter}. */
export function windowRefusal(input: { max: number; ttlMs: number; after: string }): AppError {
  const retryAfter = Math.ceil(input.ttlMs / 1000);
  return new AppError('rate_limited', `Too many requests. Try again in ${input.after}.`, {
    headers: { 'Retry-After': String(retryAfter) },
    details: { limit: input.max, retryAfter },
  });
}

/**
 * A persisted-counter refusal, the 429 of spec 002: RATE_LIMIT_EXCEEDED with details {currentUsage,
 * dailyLimit, resetTime, scope}, meta.rateLimit with retryAfter, meta.conversionOpportunity, Retry-After.
 */
export function counterRefusal(input: { currentUsage: number; limit: number; resetTime: number; scope: string; message?: string }): AppError {
  const retryAfter = Math.max(1, input.resetTime - Math.floor(Date.now() / 1000));
  const rateLimit: RateLimitState = { limit: input.limit, remaining: 0, resetTime: input.resetTime, retryAfter };
  return new AppError('rate_limited', input.message ?? `Rate limit reached (${input.limit} per ${input.scope === 'hourly' ? 'hour' : 'day'}). Sign in for higher limits.`, {
    code: 'RATE_LIMIT_EXCEEDED',
    details: { currentUsage: input.currentUsage, dailyLimit: input.limit, resetTime: input.resetTime, scope: input.scope },
    headers: { 'Retry-After': String(retryAfter) },
    extra: { meta: { rateLimit, retryAfter, conversionOpportunity: true } },
  });
}

/** A refusal by a limit counted over the feature's own rows: the table's sentence and Retry-After. */
export function countedRefusal(spec: LimitSpec, max: number, retryAfterSeconds: number): AppError {
  const message = (spec.refusal ?? 'Too many requests ({max} per {window}). Try again later.').replace('{max}', String(max)).replace('{window}', spec.window);
  return new AppError('rate_limited', message, { headers: { 'Retry-After': String(retryAfterSeconds) } });
}
