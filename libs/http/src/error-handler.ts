// One setErrorHandler and one 404 handler per service: every failure leaves in that service's shape,
// validation errors name the field, and nothing unexpected leaks (no stack, no SQL, no provider text).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, ERROR_STATUS, type ErrorKind } from './errors';
import type { ErrorRenderer, NormalizedError } from './error-shapes';

const KIND_BY_STATUS = new Map<number, ErrorKind>(Object.entries(ERROR_STATUS).map(([k, v]) => [v, k as ErrorKind]));

const CONTEXT_PREFIX: Record<string, string> = { body: '', querystring: 'query.', params: 'params.', headers: 'headers.' };

function validationFields(err: { validation?: { instancePath?: string; message?: string; params?: Record<string, unknown> }[]; validationContext?: string }) {
  const prefix = CONTEXT_PREFIX[err.validationContext ?? 'body'] ?? '';
  return (err.validation ?? []).map((v) => {
    const path = (v.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
    const missingProperty = typeof v.params?.['missingProperty'] === 'string' ? String(v.params['missingProperty']) : undefined;
    const field = `${prefix}${[path, missingProperty].filter(Boolean).join('.')}` || (prefix ? prefix.slice(0, -1) : 'body');
    const message = v.message ?? 'is invalid';
    const missing = missingProperty !== undefined || /received undefined|required/i.test(message);
    return { field, message: missing ? 'is required' : message, missing };
  });
}

/** Map anything thrown in a request to the service-independent NormalizedError. */
export function normalizeError(err: unknown): NormalizedError {
  if (err instanceof AppError) {
    return { status: err.status, kind: err.kind, message: err.message, code: err.code, field: err.field, details: err.details, extra: err.extra };
  }
  const e = err as FastifyError & { validationContext?: string };
  if (hasZodFastifySchemaValidationErrors(e) || (Array.isArray(e?.validation) && e.validation.length > 0)) {
    const fields = validationFields(e);
    const first = fields[0];
    return { status: 400, kind: 'validation', message: first ? `Invalid ${first.field}: ${first.message}` : 'Invalid request', fields, field: first?.field };
  }
  switch (e?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, kind: 'payload_too_large', message: 'Request body is too large' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, kind: 'unsupported_media_type', message: 'Unsupported Content-Type' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, kind: 'validation', message: 'Request body is empty but Content-Type is application/json', field: 'body' };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, kind: 'validation', message: 'Malformed JSON body', field: 'body' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, kind: 'validation', message: 'Content-Length does not match the body' };
  }
  if (e instanceof SyntaxError && (e as FastifyError).statusCode === 400) {
    return { status: 400, kind: 'validation', message: 'Malformed JSON body', field: 'body' };
  }
  const status = typeof e?.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) {
    const kind = KIND_BY_STATUS.get(status) ?? 'validation';
    // Client errors from Fastify and its plugins carry safe messages (they describe the request).
    return { status, kind, message: e.message || 'Bad request' };
  }
  return { status: 500, kind: 'internal', message: 'Internal server error' };
}

export interface ErrorHandlingOptions {
  render: ErrorRenderer;
}

export function registerErrorHandling(app: FastifyInstance, { render }: ErrorHandlingOptions): void {
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const normalized = normalizeError(err);
    if (normalized.status >= 500) request.log.error({ err }, 'request failed');
    else request.log.info({ status: normalized.status, code: normalized.code ?? normalized.kind }, normalized.message);
    if (err instanceof AppError && err.headers) reply.headers(err.headers);
    return reply.status(normalized.status).type('application/json; charset=utf-8').send(render(normalized, { request, elapsedMs: reply.elapsedTime }));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    return reply
      .status(404)
      .type('application/json; charset=utf-8')
      .send(render({ status: 404, kind: 'not_found', message: `Route ${request.method} ${path} not found` }, { request, elapsedMs: reply.elapsedTime }));
  });
}
