// A circuit breaker for an optional dependency with a fallback (Redis → in-process limits, Meilisearch →
// PostgreSQL full text): after a failure the dependency is left alone for `retryMs`, then one call tries it
// again (half-open); a success closes the breaker. `onOpen` and `onClose` run once per change of state, so
// an outage is logged once each way, never per request.

export type BreakerState = 'closed' | 'open' | 'half-open';

export interface CircuitBreaker {
  readonly state: BreakerState;
  /** Why it opened (ours: code and message, at most 200 characters), while not closed. */
  readonly lastError: string | undefined;
  /** Whether a call may use the dependency now (half-open: one call at a time). */
  allow(): boolean;
  success(): void;
  failure(err: unknown): void;
}

export interface CircuitBreakerOptions {
  retryMs: number;
  onOpen?: (reason: string) => void;
  onClose?: () => void;
  now?: () => number;
}

/** code and message of an error, bounded, for logs and /health. */
export function failureReason(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  const code = typeof e?.code === 'string' ? `${e.code}: ` : '';
  return `${code}${String(e?.message ?? err)}`.replace(/\s+/g, ' ').slice(0, 200);
}

export function createCircuitBreaker(options: CircuitBreakerOptions): CircuitBreaker {
  const now = options.now ?? (() => performance.now());
  let state: BreakerState = 'closed';
  let openedAt = 0;
  let probing = false;
  let lastError: string | undefined;
  return {
    get state() {
      return state;
    },
    get lastError() {
      return state === 'closed' ? undefined : lastError;
    },
    allow() {
      if (state === 'closed') return true;
      if (state === 'open' && now() - openedAt >= options.retryMs) state = 'half-open';
      if (state === 'half-open' && !probing) {
        probing = true;
        return true;
      }
      return false;
    },
    success() {
      probing = false;
      if (state === 'closed') return;
      state = 'closed';
      options.onClose?.();
    },
    failure(err) {
      probing = false;
      lastError = failureReason(err);
      openedAt = now();
      const wasClosed = state === 'closed';
      state = 'open';
      if (wasClosed) options.onOpen?.(lastError);
    },
  };
}
