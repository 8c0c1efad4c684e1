// One setErrorHandler and one 404 handler per service: every failure leaves in that service's shape,
// validation errors name the field, and nothing unexpected leaks (no stack, no SQL, no provider text).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable, isInvalidInputError } from '@story/db';
import { AppError, ERROR_STATUS, type ErrorKind } from './errors';
import type { ErrorRenderer, NormalizedError } from './error-shapes';

const KIND_BY_STATUS = new Map<number, ErrorKind>(Object.entries(ERROR_STATUS).map(([k, v]) => [v, k as ErrorKind]));

/** busboy / @fastify/busboy errors for a body that is not well-formed multipart. */
const MULTIPART_ERROR = /^(Unexpected end of (form|multipart data|file)|Malformed (part header|urlencoded form)|Multipart: Boundary not found|Part terminated early)/i;

/** A refused body up to this size is read and discarded so the client sees its answer, not a reset. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

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
  // A multipart body cut short or garbled (busboy's own errors carry no status): the client's fault.
  if (e instanceof Error && MULTIPART_ERROR.test(e.message) && typeof e.statusCode !== 'number') {
    return { status: 400, kind: 'validation', message: 'Malformed multipart body', field: 'body' };
  }
  // Last line of defence: a value PostgreSQL refuses (bad text, out of range, CHECK) is a 400, not a 500.
  if (isInvalidInputError(e)) {
    return { status: 400, kind: 'validation', message: 'Invalid input: a value is not acceptable for its field' };
  }
  // PostgreSQL restarting or unreachable: a temporary outage the client may retry, not a server bug.
  if (isDatabaseUnavailable(e)) {
    return { status: 503, kind: 'unavailable', message: 'The service is briefly unavailable; please try again in a few seconds' };
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

/** How long a 413 waits for the rest of an oversized body before the connection is closed anyway. */
const DRAIN_TIMEOUT_MS = 15_000;

/**
 * An answer sent while the client is still uploading (a 413, or a 401/403/404/415 decided before the body
 * is read), followed by closing the socket (Fastify asks for `Connection: close` on a 413; a client may
 * ask for it on any request), makes the kernel reset a connection that still holds unread bytes: the
 * client gets EPIPE/ECONNRESET instead of the answer. For a declared length we are willing to discard,
 * read the rest of the body first, then answer; larger or undeclared bodies are closed on at once.
 */
async function drainRequestBody(request: FastifyRequest): Promise<void> {
  const raw = request.raw;
  const length = Number(request.headers['content-length']);
  if (!Number.isFinite(length) || length > DRAIN_LIMIT_BYTES || raw.readableEnded || raw.destroyed) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, DRAIN_TIMEOUT_MS);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    raw.once('end', done);
    raw.once('close', done);
    raw.once('error', done);
    raw.resume();
  });
}

/**
 * Fastify's own errors before routing never reach setErrorHandler: a path that is not valid percent-encoding
 * and a path segment over maxParamLength. Answered here in the service's shape, with a fixed message (the
 * raw path can be huge and is the attacker's text).
 */
export function frameworkErrorResponder(render: ErrorRenderer): NonNullable<FastifyServerOptions['frameworkErrors']> {
  return (error, request, reply) => {
    const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
    const normalized: NormalizedError = tooLong
      ? { status: 414, kind: 'validation', message: 'URI too long: a path segment is over 100 characters' }
      : { status: 400, kind: 'validation', message: 'Malformed URL: the path is not valid percent-encoded UTF-8', field: 'path' };
    request.log.info({ status: normalized.status, code: error.code }, normalized.message);
    void (reply as FastifyReply).status(normalized.status).type('application/json; charset=utf-8').send(render(normalized, { request: request as FastifyRequest, elapsedMs: reply.elapsedTime }));
  };
}

export interface ErrorHandlingOptions {
  render: ErrorRenderer;
}

export function registerErrorHandling(app: FastifyInstance, { render }: ErrorHandlingOptions): void {
  app.setErrorHandler(async (err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const normalized = normalizeError(err);
    if (normalized.status >= 500) request.log.error({ err }, 'request failed');
    else request.log.info({ status: normalized.status, code: normalized.code ?? normalized.kind }, normalized.message);
    if (err instanceof AppError && err.headers) reply.headers(err.headers);
    if (err instanceof AppError && err.retryAfter !== undefined) reply.header('Retry-After', String(err.retryAfter));
    else if (normalized.status === 503 && normalized.kind === 'unavailable' && !(err instanceof AppError)) reply.header('Retry-After', '5');
    await drainRequestBody(request);
    return reply.status(normalized.status).type('application/json; charset=utf-8').send(render(normalized, { request, elapsedMs: reply.elapsedTime }));
  });

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0];
    await drainRequestBody(request);
    return reply
      .status(404)
      .type('application/json; charset=utf-8')
      .send(render({ status: 404, kind: 'not_found', message: `Route ${request.method} ${path} not found` }, { request, elapsedMs: reply.elapsedTime }));
  });
}
