// GET /health: 200 {status: "ok", service, version, checks} when every check answers, 503 naming the
// failing one otherwise (CONTRACTS §1). Checks are real: a query, a storage head, a provider status.
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
      const checks: Record<string, unknown> = {};
      let failed = false;
      await Promise.all(
        Object.entries(options.checks).map(async ([name, check]) => {
          try {
            checks[name] = await withTimeout(check(), options.timeoutMs ?? 2000);
          } catch (err) {
            failed = true;
            // The reason is ours (timeout, refused), never a raw driver message with credentials.
            checks[name] = { status: 'error', error: err instanceof Error ? err.message.slice(0, 200) : 'failed' };
          }
        }),
      );
      if (options.info) Object.assign(checks, await options.info());
      const body = { status: failed ? ('error' as const) : ('ok' as const), service: options.service, version: options.version, checks };
      return reply.status(failed ? 503 : 200).send(body);
    },
  );
}
