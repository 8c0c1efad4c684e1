// GET /health: 200 {status: "ok", service, version, checks} when every check answers, 503 naming the
// failing one otherwise (CONTRACTS §1). Checks are real: a query, a storage head, a provider status.
// Load balancers and monitors poll this from many places at once, so concurrent polls share one probe
// and a passing result stands for `cacheMs` (1 s): the probes cost the database one query a second, not
// one per poll, and /health stays the cheapest route. A failure is never cached: the next poll probes.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

export type HealthCheck = () => Promise<string | Record<string, unknown>>;

/** A check that passes ('ok') when `probe` resolves: a database ping, a storage bucket check. */
export const probeCheck =
  (probe: () => Promise<unknown>): HealthCheck =>
  async () => {
    await probe();
    return 'ok';
  };

export interface HealthOptions {
  service: string;
  version: string;
  checks: Record<string, HealthCheck>;
  /** Informational entries (e.g. which adapter serves each capability); never fail the check. */
  info?: () => Promise<Record<string, unknown>> | Record<string, unknown>;
  timeoutMs?: number;
  /** How long a passing probe result stands (default 1000 ms; 0 probes on every poll). */
  cacheMs?: number;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: string };

/** One call in flight at a time; a result that `keep` accepts is reused until it is `cacheMs` old. */
function shared<T>(run: () => Promise<T>, keep: (value: T) => boolean, cacheMs: number): () => Promise<T> {
  let inFlight: Promise<T> | null = null;
  let kept: { value: T; at: number } | null = null;
  return () => {
    if (kept && performance.now() - kept.at < cacheMs) return Promise.resolve(kept.value);
    inFlight ??= run()
      .then((value) => {
        kept = cacheMs > 0 && keep(value) ? { value, at: performance.now() } : null;
        return value;
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };
}

const healthBody = z.object({
  status: z.enum(['ok', 'degraded', 'error']),
  service: z.string(),
  version: z.string(),
  checks: z.record(z.string(), z.unknown()),
});

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export async function registerHealth(app: FastifyInstance, options: HealthOptions): Promise<void> {
  const probes = Object.entries(options.checks).map(([name, check]) => {
    const run = async (): Promise<Outcome> => {
      try {
        return { ok: true, value: await withTimeout(check(), options.timeoutMs ?? 2000) };
      } catch (err) {
        // The reason is ours (timeout, refused), never a raw driver message with credentials.
        return { ok: false, error: err instanceof Error ? err.message.slice(0, 200) : 'failed' };
      }
    };
    return [name, shared(run, (outcome) => outcome.ok, options.cacheMs ?? 1000)] as const;
  });
  const { info } = options;
  // Informational entries may query too (the email queue's backlog): shared and cached alike.
  const readInfo = info && shared(async () => info(), () => true, options.cacheMs ?? 1000);
  app.get(
    '/health',
    {
      // Load balancers poll this; it is never rate limited.
      config: { rateLimit: false },
      schema: {
        operationId: 'getHealth',
        summary: 'Liveness and dependency checks',
        tags: ['system'],
        response: { 200: healthBody, 503: healthBody },
      },
    },
    async (_request, reply) => {
      const results = await Promise.all(probes.map(async ([name, probe]) => [name, await probe()] as const));
      const failed = results.some(([, outcome]) => !outcome.ok);
      const checks: Record<string, unknown> = Object.fromEntries(
        results.map(([name, outcome]) => [name, outcome.ok ? outcome.value : { status: 'error', error: outcome.error }]),
      );
      if (readInfo) Object.assign(checks, await readInfo());
      const body = { status: failed ? ('error' as const) : ('ok' as const), service: options.service, version: options.version, checks };
      return reply.status(failed ? 503 : 200).send(body);
    },
  );
}
