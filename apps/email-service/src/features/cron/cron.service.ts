// The scheduler's trigger for one send-queue batch (spec 001, CONTRACTS §6): who may call it, and one run of
// the worker that buildApp created (the same worker the interval loop uses, so their batches never overlap).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { BatchResult, EmailQueueWorker } from '../../workers';

/** Constant-time comparison of the presented Authorization header against `Bearer <secret>`. */
export function cronAuthorized(header: string | undefined, secret: string | undefined): boolean {
  if (!secret || !header) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(header), digest(`Bearer ${secret}`));
}

export function createCronService({ worker, secret, batchSize }: { worker: Pick<EmailQueueWorker, 'processBatch'>; secret: string | undefined; batchSize: number }) {
  return {
    /** True when the Authorization header carries the configured CRON_SECRET; never true without one. */
    isAuthorized: (authorization: string | undefined): boolean => cronAuthorized(authorization, secret),
    /** One batch of the configured size. */
    runBatch: (): Promise<BatchResult> => worker.processBatch(batchSize),
  };
}

export type CronService = ReturnType<typeof createCronService>;
