// The one error type adapters throw (CONVENTIONS 8): SDK errors are translated at the boundary, so
// services map a kind to their own error shape and nothing of a provider's raw error reaches a client.

export const PROVIDER_ERROR_KINDS = ['unavailable', 'rejected_input', 'not_found', 'quota', 'timeout', 'auth', 'failed'] as const;
export type ProviderErrorKind = (typeof PROVIDER_ERROR_KINDS)[number];

export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly provider: string;
  /** HTTP status the provider answered with, when there was one. */
  readonly status?: number;

  constructor(kind: ProviderErrorKind, provider: string, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProviderError';
    this.kind = kind;
    this.provider = provider;
    this.status = options.status;
  }

  /** Worth retrying with backoff: rate limits, timeouts, the provider's own failures. */
  get retryable(): boolean {
    return this.kind === 'quota' || this.kind === 'timeout' || this.kind === 'unavailable';
  }
}

/** Classify an HTTP status from a provider into a ProviderError kind. */
export function kindForStatus(status: number): ProviderErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 408 || status === 504) return 'timeout';
  if (status === 429) return 'quota';
  if (status === 404) return 'not_found';
  if (status >= 500) return 'unavailable';
  if (status >= 400) return 'rejected_input';
  return 'failed';
}
