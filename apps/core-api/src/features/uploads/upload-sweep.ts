// No orphaned bytes from direct uploads (spec 000 "Recording to story" 2): an upload presigned and never
// registered (abandoned, or refused at register with 409 because it was cut short) leaves an object no row
// points to. Once its ticket has expired (plus a grace period for a register already under way) nobody can
// register it any more, so this recurring job of the core runner deletes the object and the ticket row.
// A key a recording points to is kept (only its ticket row goes).
import type { Sql } from 'postgres';
import { defineJob, type JobDefinition } from '@story/jobs';
import type { ObjectStorage } from '@story/providers';
import { createPendingUploadsRepository } from './pending-uploads.repository';

export const UPLOAD_SWEEP_JOB = 'uploads.sweep-expired';
/** How often the sweep runs. */
export const UPLOAD_SWEEP_SECONDS = 15 * 60;
/** After a ticket's expiry, how long a register that began before it may still be finishing. */
export const UPLOAD_SWEEP_GRACE_SECONDS = 10 * 60;
const BATCH = 200;

/** Delete the objects of expired, unregistered tickets; returns how many objects went. */
export async function sweepExpiredUploads(deps: { sql: Sql; storage: Pick<ObjectStorage, 'delete'>; graceSeconds?: number }): Promise<{ deleted: number; kept: number }> {
  const pending = createPendingUploadsRepository(deps.sql);
  let deleted = 0;
  let kept = 0;
  for (;;) {
    const batch = await pending.expired(deps.graceSeconds ?? UPLOAD_SWEEP_GRACE_SECONDS, BATCH);
    for (const upload of batch) {
      // The object first: a failure leaves the row, and the next run tries again (deleting twice is harmless).
      if (upload.registered) kept += 1;
      else {
        await deps.storage.delete(upload.key);
        deleted += 1;
      }
      await pending.forget(upload.key);
    }
    if (batch.length < BATCH) return { deleted, kept };
  }
}

export function uploadSweepJob(deps: { sql: Sql; storage: Pick<ObjectStorage, 'delete'> }): JobDefinition<Record<string, never>> {
  return defineJob({
    kind: UPLOAD_SWEEP_JOB,
    parse: () => ({}),
    everySeconds: UPLOAD_SWEEP_SECONDS,
    run: () => sweepExpiredUploads(deps),
  });
}
