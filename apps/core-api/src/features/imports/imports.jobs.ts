// `import.extract`, a job kind of the core queue (libs/jobs): read an uploaded document or fetch a page,
// keep its text. A page that timed out or answered 5xx is tried again with backoff; an unreadable file or
// a refused address fails at once. Either way the import ends failed with a plain sentence in `error`.
import { z } from 'zod';
import { defineJob } from '@story/jobs';
import { EXTRACT_JOB, retryableFailure, type ImportsService } from './imports.service';

const payload = z.object({ importId: z.uuid() });

export const importExtractJob = (imports: ImportsService) =>
  defineJob({
    kind: EXTRACT_JOB,
    parse: (p) => payload.parse(p),
    maxAttempts: 3,
    leaseSeconds: 5 * 60,
    run: async (ctx) => (await imports.extract(ctx.payload.importId, ctx.signal)) ?? undefined,
    retryable: retryableFailure,
    onRetry: (p, err) => imports.markRetrying(p.importId, err),
    onGiveUp: (p, err) => imports.markFailed(p.importId, err),
    // Its worker died mid-read: the row goes back to waiting, the job is run again.
    onReclaimed: (p) => imports.markInterrupted(p.importId),
  });
