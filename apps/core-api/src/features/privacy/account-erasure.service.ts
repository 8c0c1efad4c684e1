// Account erasure (spec 000 User, privacy, consent; CONTRACTS §9): POST /api/privacy/erase and DELETE
// /api/user/account. One transaction removes or anonymises every row (account-erasure.repository.ts says
// table by table), anonymises the queued emails (libs/email eraseUserEmailData, spec 001 Limits), and
// enqueues the storage sweep: `account.purge_storage` jobs whose payloads are the object keys collected
// inside that same transaction, and one `account.purge_prefixes` job that lists and empties the account's
// storage prefixes (owned-files.ts accountStoragePrefixes), so objects no row points to go too. Rows and
// sweep commit together or not at all; the sweep is retried by the job runner until every object is gone
// (deleting a missing key is not an error, so a rerun is harmless).
import type { TransactionSql } from 'postgres';
import { z } from 'zod';
import type { Database, Transaction } from '@story/db';
import { eraseUserEmailData } from '@story/email';
import { badRequest, notFound } from '@story/http';
import { defineJob } from '@story/jobs';
import type { ObjectStorage } from '@story/providers';
import { accountEmail, deleteAccount, endImpersonations, eraseOwnedRows, lockAccount, recordErasure } from './account-erasure.repository';
import { accountStoragePrefixes, ownedFiles } from './owned-files';

export const PURGE_STORAGE_JOB = 'account.purge_storage';
/** The second sweep: every object under the account's storage prefixes, listed, whether rows named it or not. */
export const PURGE_PREFIXES_JOB = 'account.purge_prefixes';
/** Keys per sweep job: a payload stays small, and a failure retries only its own slice. */
export const PURGE_BATCH = 500;
/** Deletes in flight at once: storage round trips overlap (an S3 delete is one request each). */
const PURGE_CONCURRENCY = 8;

export interface ErasureResult {
  files: number;
  anonymisedEmails: number;
  jobs: string[];
}

export interface AccountErasureDeps {
  db: Database;
  storage: Pick<ObjectStorage, 'delete' | 'list'>;
  /** Enqueue a job in the erasure's transaction (the core runner's enqueue). */
  enqueue(kind: string, payload: Record<string, unknown>, tx: TransactionSql): Promise<{ id: string }>;
  /** Clear a job's payload once it has succeeded (its keys and prefixes name the account). */
  scrubPayload(jobId: string, empty: Record<string, unknown[]>): Promise<void>;
  wakeRunner?: () => void;
}

/**
 * The postgres.js transaction under a Drizzle one. eraseUserEmailData takes Drizzle and the job queue
 * takes postgres.js; both must write in one transaction, and Drizzle's postgres-js session holds exactly
 * that client (drizzle-orm/postgres-js/session.js `transaction`).
 */
function rawTransaction(tx: Transaction): TransactionSql {
  const client = (tx as unknown as { session?: { client?: TransactionSql } }).session?.client;
  if (!client) throw new Error('Drizzle transaction without a postgres.js client');
  return client;
}

export function createAccountErasureService({ db, storage, enqueue, scrubPayload, wakeRunner }: AccountErasureDeps) {
  const purgeJob = defineJob({
    kind: PURGE_STORAGE_JOB,
    parse: (p) => z.object({ keys: z.array(z.string().min(1)).max(PURGE_BATCH) }).parse(p),
    // Retried until done: backoff grows to 10 minutes, so 50 attempts keep trying for about 8 hours.
    maxAttempts: 50,
    leaseSeconds: 10 * 60,
    async run(ctx) {
      const keys = ctx.payload.keys;
      let next = 0;
      let deleted = 0;
      // A few workers take keys in turn; the first failure rejects the run and the runner retries it all.
      const worker = async () => {
        while (next < keys.length) {
          if (ctx.signal.aborted) throw new Error('stopped');
          await storage.delete(keys[next++] as string);
          deleted += 1;
          if (deleted % 100 === 0) await ctx.progress({ deleted, of: keys.length });
        }
      };
      await Promise.all(Array.from({ length: Math.min(PURGE_CONCURRENCY, keys.length) }, worker));
      await scrubPayload(ctx.id, { keys: [] });
      return { deleted };
    },
  });

  const purgePrefixesJob = defineJob({
    kind: PURGE_PREFIXES_JOB,
    parse: (p) => z.object({ prefixes: z.array(z.string().min(3)).max(10_000) }).parse(p),
    maxAttempts: 50,
    leaseSeconds: 10 * 60,
    async run(ctx) {
      let deleted = 0;
      for (const prefix of ctx.payload.prefixes) {
        // List a page, delete it, list again from the start: the folder empties page by page. A page that
        // comes back unchanged means deletes are not taking; the run fails and the runner retries later.
        let previous = '';
        for (;;) {
          if (ctx.signal.aborted) throw new Error('stopped');
          const page = await storage.list(prefix, { limit: 1000 });
          if (page.objects.length === 0) break;
          const signature = page.objects.map((o) => o.key).join('\n');
          if (signature === previous) throw new Error(`objects under a purged prefix are still listed after deletion`);
          previous = signature;
          let next = 0;
          const worker = async () => {
            while (next < page.objects.length) await storage.delete(page.objects[next++]!.key);
          };
          await Promise.all(Array.from({ length: Math.min(PURGE_CONCURRENCY, page.objects.length) }, worker));
          deleted += page.objects.length;
          await ctx.progress({ deleted });
        }
      }
      await scrubPayload(ctx.id, { prefixes: [] });
      return { deleted };
    },
  });

  /** `actorId`: who asks (the account itself; an admin's id if one ever erased on someone's behalf), kept on the audit row. */
  async function erase(userId: string, options: { confirmEmail?: string; reason?: string | null; via: string; actorId?: string }): Promise<ErasureResult> {
    const result = await db.transaction(async (tx) => {
      const raw = rawTransaction(tx);
      const account = await lockAccount(raw, userId);
      if (!account) throw notFound('Account');
      if (options.confirmEmail !== undefined && options.confirmEmail.trim().toLowerCase() !== account.email.toLowerCase()) {
        throw badRequest('confirmEmail does not match the account email', { field: 'confirmEmail' });
      }
      // Keys and prefixes first: the rows that name them are about to go.
      const keys = [...new Set((await ownedFiles(raw, userId)).map((f) => f.key))];
      const actorId = options.actorId ?? userId;
      const actor = { id: actorId, email: actorId === userId ? account.email : await accountEmail(raw, actorId) };
      const prefixes = await accountStoragePrefixes(raw, userId);
      const rows = await eraseOwnedRows(raw, userId, account.email);
      const { anonymisedEmails } = await eraseUserEmailData(tx, userId);
      await endImpersonations(raw, userId);
      await deleteAccount(raw, userId);
      await recordErasure(raw, { account: { id: userId, email: account.email }, actor, reason: options.reason?.slice(0, 1000) ?? null, files: keys.length, rows, via: options.via });
      const jobs: string[] = [];
      for (let i = 0; i < keys.length; i += PURGE_BATCH) jobs.push((await enqueue(PURGE_STORAGE_JOB, { keys: keys.slice(i, i + PURGE_BATCH) }, raw)).id);
      // Then everything under the account's prefixes, rows or not (an upload never registered, say).
      jobs.push((await enqueue(PURGE_PREFIXES_JOB, { prefixes }, raw)).id);
      return { files: keys.length, anonymisedEmails, jobs };
    });
    wakeRunner?.();
    return result;
  }

  return { jobs: { purgeKeys: purgeJob, purgePrefixes: purgePrefixesJob }, erase };
}

export type AccountErasureService = ReturnType<typeof createAccountErasureService>;
