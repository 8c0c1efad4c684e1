// Translation of SDK failures into ProviderError at the adapter boundary (CONVENTIONS 8). Messages are
// our own words: a provider's raw error text can carry request details and never reaches a client.
import { kindForStatus, ProviderError, type ProviderErrorKind } from '../provider-error';

// google.rpc.Code values, for errors that carry a gRPC status instead of an HTTP one (operation errors).
const GRPC_KINDS: Record<number, ProviderErrorKind> = {
  1: 'failed', // CANCELLED
  2: 'failed', // UNKNOWN
  3: 'rejected_input', // INVALID_ARGUMENT
  4: 'timeout', // DEADLINE_EXCEEDED
  5: 'not_found',
  7: 'auth', // PERMISSION_DENIED
  8: 'quota', // RESOURCE_EXHAUSTED
  9: 'rejected_input', // FAILED_PRECONDITION
  11: 'rejected_input', // OUT_OF_RANGE
  13: 'unavailable', // INTERNAL
  14: 'unavailable',
  16: 'auth', // UNAUTHENTICATED
};

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'ECONNABORTED']);

export function messageFor(kind: ProviderErrorKind, provider: string): string {
  switch (kind) {
    case 'rejected_input':
      return `${provider} could not read this media (unsupported or corrupt audio)`;
    case 'auth':
      return `${provider} refused the configured credentials`;
    case 'quota':
      return `${provider} rate limit or quota reached`;
    case 'timeout':
      return `${provider} did not answer in time`;
    case 'unavailable':
      return `${provider} speech recognition is unavailable`;
    case 'not_found':
      return `${provider} could not find the requested resource`;
    case 'failed':
      return `${provider} speech recognition failed`;
  }
}

function numberOrUndefined(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\d{3}$/.test(value)) return Number(value);
  return undefined;
}

/** HTTP status carried by a gaxios, fetch or Deepgram SDK error, when there is one. */
function httpStatusOf(err: Record<string, unknown>): number | undefined {
  const response = err['response'] as Record<string, unknown> | undefined;
  const raw = err['rawResponse'] as Record<string, unknown> | undefined;
  for (const candidate of [err['status'], err['statusCode'], response?.['status'], raw?.['status']]) {
    const status = numberOrUndefined(candidate);
    if (status !== undefined && status >= 400 && status < 600) return status;
  }
  return undefined;
}

/** A refused, reset or unresolvable connection, anywhere in the cause chain (fetch nests it). */
function isNetworkFailure(err: Record<string, unknown>): boolean {
  let current: Record<string, unknown> | undefined = err;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = current['code'];
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (/fetch failed|socket hang up/i.test(String(current['message'] ?? ''))) return true;
    const cause: unknown = current['cause'];
    current = cause !== null && typeof cause === 'object' ? (cause as Record<string, unknown>) : undefined;
  }
  return false;
}

/** Classify any SDK failure; an existing ProviderError passes through unchanged. */
export function toProviderError(provider: string, err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  if (err === null || typeof err !== 'object') return new ProviderError('failed', provider, messageFor('failed', provider), { cause: err });
  const e = err as Record<string, unknown>;
  const status = httpStatusOf(e);
  if (status !== undefined) {
    const kind = kindForStatus(status);
    return new ProviderError(kind, provider, messageFor(kind, provider), { status, cause: err });
  }
  const name = typeof e['name'] === 'string' ? e['name'] : '';
  if (/timeout/i.test(name)) return new ProviderError('timeout', provider, messageFor('timeout', provider), { cause: err });
  const code = e['code'];
  if (typeof code === 'number' && GRPC_KINDS[code]) {
    const kind = GRPC_KINDS[code];
    return new ProviderError(kind, provider, messageFor(kind, provider), { cause: err });
  }
  if (isNetworkFailure(e)) {
    return new ProviderError('unavailable', provider, messageFor('unavailable', provider), { cause: err });
  }
  return new ProviderError('failed', provider, messageFor('failed', provider), { cause: err });
}

/** The caller's cancellation, as an error that is not retried and does not trigger the fallback. */
export function cancelledError(provider: string): ProviderError {
  return new ProviderError('failed', provider, `${provider} transcription was cancelled`);
}

/** Resolve `work`, unless the caller's signal fires first. */
export function raceAbort<T>(provider: string, signal: AbortSignal | undefined, work: Promise<T>): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(cancelledError(provider));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelledError(provider));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
