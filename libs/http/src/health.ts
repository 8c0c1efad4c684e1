// GET /health (CONTRACTS §1): 200 {status, service, version, checks} with one entry per configured
// dependency and its state. status is "ok" when every dependency answers, "degraded" (still 200) when only
// optional ones fail or run on a fallback (Redis: in-process limits; the search engine: PostgreSQL full
// text; SMTP: the queue keeps the mail and retries), and "error" with 503 when one the service cannot run
// without (its database, its storage) fails: a load balancer takes a replica out only for that.
// GET /health/live answers 200 without asking any dependency: a liveness probe must not restart a
// process because something else is down. Checks are real: a query, a storage head, an SMTP greeting.
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

/** A check with its weight: `required: false` makes its failure "degraded" (200) instead of 503. */
export interface DependencyCheck {
  check: HealthCheck;
  /** Default true: the service cannot serve without it. */
  required?: boolean;
  /**
   * How long any result of this probe stands, failures included (default: a pass stands `cacheMs`, a
   * failure is probed again at the next poll). Costly probes (an SMTP greeting) set it.
   */
  cacheMs?: number;
}

/** A check value that reports a fallback in use: the dependency is not answering, the service still is. */
const isDegradedValue = (value: unknown) => typeof value === 'object' && value !== null && (value as { status?: unknown }).status === 'degraded';

export interface HealthOptions {
  service: string;
  version: string;
  /** Each configured dependency: a bare check is required. */
  checks: Record<string, HealthCheck | DependencyCheck>;
  /** Informational entries (e.g. which adapter serves each capability); never fail the check. */
  info?: () => Promise<Record<string, unknown>> | Record<string, unknown>;
  timeoutMs?: number;
  /** How long a passing probe result stands (default 1000 ms; 0 probes on every poll). */
  cacheMs?: number;
  /** The service's error shape, declared for the one failure /health/live can have (500). */
  errorSchema?: z.ZodType;
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

const liveBody = z.object({ status: z.literal('ok'), service: z.string(), version: z.string() });

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
  const probes = Object.entries(options.checks).map(([name, entry]) => {
    const spec: DependencyCheck = typeof entry === 'function' ? { check: entry } : entry;
    const run = async (): Promise<Outcome> => {
      try {
        return { ok: true, value: await withTimeout(spec.check(), options.timeoutMs ?? 2000) };
      } catch (err) {
        // The reason is ours (timeout, refused), never a raw driver message with credentials.
        return { ok: false, error: err instanceof Error ? err.message.slice(0, 200) : 'failed' };
      }
    };
    const keep = spec.cacheMs === undefined ? (outcome: Outcome) => outcome.ok : () => true;
    return { name, required: spec.required ?? true, probe: shared(run, keep, spec.cacheMs ?? options.cacheMs ?? 1000) };
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
        summary: 'Readiness: the state of every configured dependency',
        description:
          'status ok: every dependency answers; degraded (200): an optional one (Redis, the search engine, SMTP) is down and the service runs on its fallback; ' +
          'error (503): the database or storage does not answer. Each entry of checks is "ok", an object with its details, or {status: "error", error} (optional ones add required: false).',
        tags: ['system'],
        response: { 200: healthBody, 503: healthBody },
      },
    },
    async (_request, reply) => {
      const results = await Promise.all(probes.map(async ({ name, required, probe }) => ({ name, required, outcome: await probe() })));
      const failedRequired = results.some((r) => !r.outcome.ok && r.required);
      const degraded = results.some((r) => (!r.outcome.ok && !r.required) || (r.outcome.ok && isDegradedValue(r.outcome.value)));
      const checks: Record<string, unknown> = Object.fromEntries(
        results.map(({ name, required, outcome }) => [
          name,
          outcome.ok ? outcome.value : { status: 'error', error: outcome.error, ...(required ? {} : { required: false }) },
        ]),
      );
      if (readInfo) Object.assign(checks, await readInfo());
      const status = failedRequired ? ('error' as const) : degraded ? ('degraded' as const) : ('ok' as const);
      return reply.status(failedRequired ? 503 : 200).send({ status, service: options.service, version: options.version, checks });
    },
  );
  app.get(
    '/health/live',
    {
      config: { rateLimit: false },
      schema: {
        operationId: 'getLiveness',
        summary: 'Liveness: the process answers (no dependency is asked)',
        tags: ['system'],
        response: { 200: liveBody, ...(options.errorSchema ? { 500: options.errorSchema } : {}) },
      },
    },
    async () => ({ status: 'ok' as const, service: options.service, version: options.version }),
  );
}
