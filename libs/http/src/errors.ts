// One error vocabulary for the domain code of every service (CONVENTIONS 4). Services throw AppError
// with a kind; only the HTTP layer (error-handler.ts + the service's renderer) knows statuses.

export const ERROR_STATUS = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  bad_gateway: 502,
  unavailable: 503,
  timeout: 504,
} as const;

export type ErrorKind = keyof typeof ERROR_STATUS;

export interface AppErrorOptions {
  /** A service-specific code (TEMPLATE_NOT_FOUND, size_mismatch, INVALID_INPUT, ...). */
  code?: string;
  /** The request field at fault, for validation errors. */
  field?: string;
  /** Extra detail for the client: a sentence (core-api) or an object (email, tools). */
  details?: unknown;
  /** Additional top-level body fields some routes need (e.g. {status: 'upload_failed'}). */
  extra?: Record<string, unknown>;
  /** Response headers to add. */
  headers?: Record<string, string>;
  /** Seconds until a refused request may be tried again: the error handler sends it as Retry-After. */
  retryAfter?: number;
  cause?: unknown;
}

export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly code?: string;
  readonly field?: string;
  readonly details?: unknown;
  readonly extra?: Record<string, unknown>;
  readonly headers?: Record<string, string>;
  readonly retryAfter?: number;

  constructor(kind: ErrorKind, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.kind = kind;
    this.code = options.code;
    this.field = options.field;
    this.details = options.details;
    this.extra = options.extra;
    this.headers = options.headers;
    this.retryAfter = options.retryAfter;
  }

  get status(): number {
    return ERROR_STATUS[this.kind];
  }
}

export const isAppError = (err: unknown): err is AppError => err instanceof AppError;

/** Shorthands for the common cases. */
export const notFound = (what: string, options?: AppErrorOptions) => new AppError('not_found', `${what} not found`, options);
export const forbidden = (message = 'Forbidden', options?: AppErrorOptions) => new AppError('forbidden', message, options);
export const conflict = (message: string, options?: AppErrorOptions) => new AppError('conflict', message, options);
export const badRequest = (message: string, options?: AppErrorOptions) => new AppError('validation', message, options);
