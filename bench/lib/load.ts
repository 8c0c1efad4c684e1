// One autocannon run per target: a discarded warm-up (JIT, pools, caches), then the measured run.
// The load runs in an autocannon worker thread: the bench's own event loop stays free to handle
// Ctrl-C at once (tsx SIGKILLs a child that does not acknowledge a signal within ~60 ms) and to
// forward child output without stealing time from the load generator.
import autocannon from 'autocannon';

export interface Target {
  name: string;
  url: string;
  headers?: Record<string, string>;
}

export interface LoadOptions {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
}

export interface Measurement {
  target: string;
  url: string;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  totalRequests: number;
  /** Non-2xx answers, warm-up included: any fails the bench. */
  non2xx: number;
  /** Connection errors (timeouts included), warm-up included: any fails the bench. */
  errors: number;
}

/**
 * `around` wraps the measured run only (not the warm-up): it gets a function that runs it and answers its
 * request count, e.g. to sample CPU before and after (lib/cpu.ts).
 */
export async function measure(target: Target, options: LoadOptions, around?: (measured: () => Promise<number>) => Promise<unknown>): Promise<Measurement> {
  const warmup = await run(target, options.connections, options.warmupSeconds);
  const got: { result?: autocannon.Result } = {};
  const measured = async () => {
    got.result = await run(target, options.connections, options.durationSeconds);
    return got.result.requests.total;
  };
  if (around) await around(measured);
  else await measured();
  const result = got.result;
  if (!result) throw new Error(`${target.name}: the measured run did not run`);
  return {
    target: target.name,
    url: target.url,
    requestsPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    totalRequests: result.requests.total,
    non2xx: warmup.non2xx + result.non2xx,
    errors: warmup.errors + result.errors,
  };
}

function run(target: Target, connections: number, seconds: number): Promise<autocannon.Result> {
  return autocannon({ url: target.url, connections, duration: seconds, headers: target.headers ?? {}, workers: 1 });
}
