// The core job worker: claims `recording.process` jobs (FOR UPDATE SKIP LOCKED, leased) and, for each,
// fills in what the upload left for later (duration, waveform), then transcribes through the provider
// chooser. Any number of these run side by side in any number of replicas.
//
// Transcript states (spec 000 States): the job sets processing; success sets done with the provider's real
// name as transcript_source; a failure worth retrying goes back to pending while the job waits out its
// backoff; a final failure sets failed with a plain transcript_error. With no provider configured the job
// fails at once with that message and the browser caption stays as the transcript. A job whose worker died
// is reclaimed when its lease runs out, and once out of attempts its recording is set failed, so no
// recording stays in processing forever.
//
// Limits (spec 000): a recording longer than 30 minutes, as probed here, is not transcribed: it is marked
// failed with a transcript_error naming the limit. Transcription streams the temp file to the provider
// (never read whole), and media over the provider's size cap fails with that provider's message.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { randomBytes } from 'node:crypto';
import type { Sql } from 'postgres';
import type { JobQueue } from '@story/jobs';
import { mediaFromFile, NOT_CONFIGURED_MESSAGE, ProviderError, type ObjectStorage, type SpeechRecognition } from '@story/providers';
import { computeWaveform, probeMedia } from '../features/recordings/media-probe';
import { MAX_VOICE_SECONDS, PROCESS_JOB, VOICE_TOO_LONG } from '../features/recordings/recordings.service';

export interface WorkerLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface RecordingWorkerDeps {
  sql: Sql;
  jobs: JobQueue;
  storage: ObjectStorage;
  speech: SpeechRecognition;
  log?: WorkerLog;
  workerId?: string;
  /** How long a claimed job is ours before another worker may take it over. */
  leaseSeconds?: number;
}

interface RecordingForJob {
  id: string;
  userId: string;
  storageKey: string | null;
  mimeType: string | null;
  durationSeconds: number | null;
  hasWaveform: boolean;
}

const silent: WorkerLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

export function createRecordingWorker(deps: RecordingWorkerDeps) {
  const { sql, jobs, storage, speech } = deps;
  const log = deps.log ?? silent;
  const workerId = deps.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const leaseSeconds = deps.leaseSeconds ?? 15 * 60;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;

  /** Stream the object to a private temp file: ffmpeg needs to seek, and nothing is held in memory. */
  async function download(key: string): Promise<{ file: string; cleanup: () => Promise<void> }> {
    const dir = await mkdtemp(path.join(tmpdir(), 'rec-job-'));
    const file = path.join(dir, 'media');
    try {
      const object = await storage.get(key);
      await pipeline(object.body, createWriteStream(file));
      return { file, cleanup: () => rm(dir, { recursive: true, force: true }) };
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
  }

  /** Fill in duration and waveform; returns the probed duration (null when ffprobe cannot tell). */
  async function analyze(rec: RecordingForJob, file: string): Promise<number | null> {
    const [probe, waveform] = await Promise.all([probeMedia(file), rec.hasWaveform ? Promise.resolve(null) : computeWaveform(file)]);
    await sql`
      update recordings set
             duration_seconds = coalesce(duration_seconds, ${probe.durationSeconds === null ? null : Math.round(probe.durationSeconds)}),
             waveform_data = coalesce(${waveform}::real[], waveform_data),
             media_type = case when ${probe.hasVideo} then 'video' else media_type end,
             updated_at = now()
       where id = ${rec.id}`;
    return probe.durationSeconds;
  }

  async function transcribe(rec: RecordingForJob, file: string) {
    await sql`update recordings set transcript_status = 'processing', updated_at = now() where id = ${rec.id}`;
    // The temp file, streamed by the adapter (and opened again for a retry or the fallback).
    const media = mediaFromFile(file, (await stat(file)).size);
    const result = await speech.transcribe(media, { mimeType: rec.mimeType ?? 'application/octet-stream', language: 'auto', userId: rec.userId, feature: 'recording-transcription' });
    await sql`
      update recordings set transcript = ${result.text}, transcript_source = ${result.provider}, transcript_status = 'done',
             transcript_error = null, transcript_updated_at = now() at time zone 'utc',
             transcript_words = ${result.words ? JSON.stringify(result.words) : null}::jsonb,
             duration_seconds = coalesce(duration_seconds, ${Math.round(result.durationSeconds) || null}), updated_at = now()
       where id = ${rec.id}`;
  }

  async function markFailed(recordingId: string, message: string) {
    await sql`
      update recordings set transcript_status = 'failed', transcript_error = ${message}, transcript_updated_at = now() at time zone 'utc', updated_at = now()
       where id = ${recordingId}`;
  }

  async function runJob(job: { id: string; payload: Record<string, unknown>; attempts: number; maxAttempts: number }) {
    const recordingId = String(job.payload['recordingId'] ?? '');
    const [rec] = await sql<RecordingForJob[]>`
      select id, user_id as "userId", storage_key as "storageKey", mime_type as "mimeType", duration_seconds as "durationSeconds",
             waveform_data is not null as "hasWaveform"
        from recordings where id = ${recordingId}`;
    if (!rec || !rec.storageKey) return jobs.complete(job.id, workerId, { skipped: 'recording gone' });

    let fetched: { file: string; cleanup: () => Promise<void> } | undefined;
    try {
      const needsAnalysis = job.payload['analyze'] === true && (rec.durationSeconds === null || !rec.hasWaveform);
      if (needsAnalysis || speech.available) fetched = await download(rec.storageKey);
      const probed = needsAnalysis ? await analyze(rec, fetched!.file) : null;
      // The probed length when known (a client's duration may be wrong), else the stored one.
      const seconds = probed ?? rec.durationSeconds;
      if (seconds !== null && seconds > MAX_VOICE_SECONDS) {
        await markFailed(rec.id, VOICE_TOO_LONG);
        return jobs.complete(job.id, workerId, { transcribed: false, reason: 'over the 30-minute voice limit' });
      }
      if (!speech.available) {
        await markFailed(rec.id, NOT_CONFIGURED_MESSAGE);
        return jobs.complete(job.id, workerId, { transcribed: false, reason: 'not configured' });
      }
      await transcribe(rec, fetched!.file);
      await jobs.complete(job.id, workerId, { transcribed: true });
    } catch (err) {
      const retryable = err instanceof ProviderError ? err.retryable : true;
      const message = err instanceof ProviderError ? err.message : 'Transcription failed unexpectedly';
      const status = await jobs.fail(job.id, workerId, err instanceof Error ? err.message : String(err), { retry: retryable });
      if (status === 'queued') {
        await sql`update recordings set transcript_status = 'pending', transcript_error = ${message}, updated_at = now() where id = ${rec.id}`;
      } else {
        await markFailed(rec.id, message);
      }
      log.warn({ recordingId: rec.id, status, err: message }, 'recording job failed');
    } finally {
      await fetched?.cleanup();
    }
  }

  /** Reclaim expired leases, then claim and run up to `limit` jobs one after another; returns how many ran. */
  async function runOnce(limit = 4): Promise<number> {
    const reclaimed = await jobs.reclaimExpired();
    for (const job of reclaimed) {
      if (job.kind !== PROCESS_JOB) continue;
      const recordingId = String(job.payload['recordingId'] ?? '');
      if (job.status === 'dead') await markFailed(recordingId, 'Transcription stopped repeatedly before finishing; try again');
      else await sql`update recordings set transcript_status = 'pending', updated_at = now() where id = ${recordingId} and transcript_status = 'processing'`;
    }
    // The core queue carries other kinds (book exports) for the runner: take only ours.
    const claimed = await jobs.claim(workerId, limit, leaseSeconds, [PROCESS_JOB]);
    for (const job of claimed) {
      if (job.kind === PROCESS_JOB) await runJob(job);
      else await jobs.fail(job.id, workerId, `no handler for ${job.kind}`, { retry: false });
    }
    return claimed.length;
  }

  return {
    workerId,
    runOnce,
    /** Poll every `intervalMs`; a busy queue is drained without waiting between batches. */
    start(intervalMs = 1000) {
      stopped = false;
      const tick = async () => {
        try {
          // Checked on every round: stop() must not be followed by one more claim on a closing pool.
          while (!stopped && (await (running = runOnce())) > 0) {
            /* keep draining */
          }
        } catch (err) {
          log.error({ err }, 'recording worker tick failed');
        } finally {
          running = undefined;
          if (!stopped) timer = setTimeout(tick, intervalMs);
        }
      };
      timer = setTimeout(tick, 0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
}
