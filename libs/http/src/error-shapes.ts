// The three error bodies of CONTRACTS §3. Each service passes its renderer to registerErrorHandling.
import type { FastifyRequest } from 'fastify';
import type { ErrorKind } from './errors';

/** What the error handler knows about a failed request, independent of the body shape. */
export interface NormalizedError {
  status: number;
  kind: ErrorKind;
  message: string;
  code?: string;
  /** Fields at fault (validation), first one most relevant. */
  fields?: { field: string; message: string; missing: boolean }[];
  field?: string;
  details?: unknown;
  extra?: Record<string, unknown>;
}

export interface RenderContext {
  request: FastifyRequest;
  /** Milliseconds since the request arrived. */
  elapsedMs: number;
}

export type ErrorRenderer = (error: NormalizedError, context: RenderContext) => unknown;

const fieldSummary = (e: NormalizedError) => (e.fields ?? []).map((f) => `${f.field}: ${f.message}`).join('; ');

/** core-api: {error: string, details?: string}; 401 is exactly {error: "Unauthorized"}. */
export const coreErrorRenderer: ErrorRenderer = (e) => {
  if (e.status === 401) return { error: 'Unauthorized', ...(typeof e.details === 'string' ? { details: e.details } : {}) };
  const details = e.fields?.length ? fieldSummary(e) : typeof e.details === 'string' ? e.details : undefined;
  return {
    error: e.message,
    ...(details ? { details } : {}),
    ...(e.code ? { code: e.code } : {}),
    ...(e.extra ?? {}),
  };
};

const EMAIL_CODES: Partial<Record<ErrorKind, string>> = {
  validation: 'VALIDATION_ERROR',
  unprocessable: 'VALIDATION_ERROR',
  unauthorized: 'UNAUTHORIZED',
  forbidden: 'INSUFFICIENT_PERMISSIONS',
  not_found: 'NOT_FOUND',
  conflict: 'CONFLICT',
  rate_limited: 'RATE_LIMITED',
  payload_too_large: 'PAYLOAD_TOO_LARGE',
  unsupported_media_type: 'UNSUPPORTED_MEDIA_TYPE',
};

/** email-service: {error, code, details?: object}; validation lists details.missing_fields. */
export const emailErrorRenderer: ErrorRenderer = (e) => {
  const code = e.code ?? EMAIL_CODES[e.kind] ?? 'INTERNAL_ERROR';
  let details = e.details as Record<string, unknown> | undefined;
  if (e.fields?.length) {
    details = {
      ...(details ?? {}),
      missing_fields: e.fields.filter((f) => f.missing).map((f) => f.field),
      invalid_fields: Object.fromEntries(e.fields.map((f) => [f.field, f.message])),
    };
  }
  return { error: e.message, code, ...(details ? { details } : {}), ...(e.extra ?? {}) };
};

const TOOLS_CODES: Partial<Record<ErrorKind, string>> = {
  validation: 'INVALID_INPUT',
  unprocessable: 'INVALID_INPUT',
  unauthorized: 'UNAUTHORIZED',
  forbidden: 'ACCESS_DENIED',
  not_found: 'CONTENT_NOT_FOUND',
  rate_limited: 'RATE_LIMIT_EXCEEDED',
  payload_too_large: 'PAYLOAD_TOO_LARGE',
  unsupported_media_type: 'UNSUPPORTED_MEDIA_TYPE',
  conflict: 'CONFLICT',
};

/** tools-api: the envelope {success: false, error: {code, message, details?, field?, timestamp}, meta}. */
export const toolsErrorRenderer: ErrorRenderer = (e, { request, elapsedMs }) => {
  const field = e.field ?? e.fields?.[0]?.field;
  const details = e.fields?.length ? { fields: Object.fromEntries(e.fields.map((f) => [f.field, f.message])), ...((e.details as object) ?? {}) } : e.details;
  const { meta: extraMeta, ...extraTop } = (e.extra ?? {}) as { meta?: Record<string, unknown> };
  return {
    success: false,
    error: {
      code: e.code ?? TOOLS_CODES[e.kind] ?? 'INTERNAL_ERROR',
      message: e.message,
      ...(details !== undefined ? { details } : {}),
      ...(field ? { field } : {}),
      timestamp: new Date().toISOString(),
    },
    meta: {
      requestId: request.id,
      processingTime: Math.round(elapsedMs),
      ...(extraMeta ?? {}),
    },
    ...extraTop,
  };
};
