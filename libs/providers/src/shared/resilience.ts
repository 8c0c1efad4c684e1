// Timeouts and retries shared by every adapter: a provider that does not answer in time becomes a
// ProviderError('timeout'); retryable failures (429, 5xx, timeouts) are retried with exponential
// backoff and full jitter, and only for operations that are safe to repeat.
import { ProviderError } from '../provider-error';

export interface RetryPolicy {
  /** Attempts after the first one. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 2, baseDelayMs: 200, maxDelayMs: 4000 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Run `operation` with an AbortSignal that fires after `timeoutMs`; a timeout throws ProviderError('timeout'). */
export async function withTimeout<T>(provider: string, timeoutMs: number, operation: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new ProviderError('timeout', provider, `${provider} did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([operation(controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Retry while the error is a retryable ProviderError; other errors and the last failure are thrown. */
export async function withRetry<T>(operation: (attempt: number) => Promise<T>, policy: RetryPolicy = DEFAULT_RETRY): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await operation(attempt);
    } catch (err) {
      const retryable = err instanceof ProviderError && err.retryable;
      if (!retryable || attempt >= policy.retries) throw err;
      const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
      await sleep(Math.random() * cap);
    }
  }
}
