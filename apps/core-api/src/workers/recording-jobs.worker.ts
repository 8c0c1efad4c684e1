// `recording.process`, a job kind of the core queue's runner (libs/jobs): for one recording it fills in what
// the upload left for later (duration, waveform), then transcribes through the provider chooser. The
// runner claims (FOR UPDATE SKIP LOCKED, leased), retries with backoff and sweeps stuck jobs, so any
// number of these run side by side in any number of replicas.
//
// Transcript states (spec 000 States): the job sets processing; success sets done with the provider's real
// name as transcript_source; a failure worth retrying goes back to pending while the job waits out its
// backoff; a final failure sets failed with a plain transcript_error. On the embedded defaults the provider
// is the local recogniser (CONTRACTS §4), run here in the job runner's process: the owner's voice-settings
// language goes with the request (the English-only recogniser refuses any other), and each recognised piece
// extends the job's lease. With recognition switched off (STT_PRIMARY=none) the job fails at once with
// that message and the browser caption stays as the transcript. A job whose worker died
// is taken over when its lease runs out, and once out of attempts its recording is set failed, so no
// recording stays in processing forever.
//
// Limits (spec 000): a recording longer than 30 minutes, as probed here, is not transcribed: it is marked
// failed with a transcript_error naming the limit. Transcription streams the temp file to the provider
// (never read whole), and media over the provider's size cap fails with that provider's message.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Sql } from 'postgres';
import { z } from 'zod';
import { createJobRunner, defineJob, StuckJobError, type JobContext, type JobRunner } from '@story/jobs';
import { mediaFromFile, NOT_CONFIGURED_MESSAGE, ProviderError, type ObjectStorage, type SpeechRecognition } from '@story/providers';
import { computeWaveform, probeMedia } from '../features/recordings/media-probe';
import { createRecordingJobsRepository, type RecordingForJob } from './recording-jobs.repository';
import { MAX_VOICE_SECONDS, PROCESS_JOB, VOICE_TOO_LONG } from '../features/recordings/recordings.service';

export interface WorkerLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface RecordingJobDeps {
  sql: Sql;
  storage: ObjectStorage;
  speech: SpeechRecognition;
  log?: WorkerLog;
}


const silent: WorkerLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

const payloadSchema = z.object({ recordingId: z.uuid(), analyze: z.boolean().default(false) });

/** The user-facing transcript_error for a failure (a provider's own plain message, else a generic one). */
function failureMessage(err: unknown): string {
  if (err instanceof StuckJobError) return 'Transcription stopped repeatedly before finishing; try again';
  return err instanceof ProviderError ? err.message : 'Transcription failed unexpectedly';
}

export function recordingProcessJob(deps: RecordingJobDeps) {
  const { storage, speech } = deps;
  const log = deps.log ?? silent;
  const recordings = createRecordingJobsRepository(deps.sql);

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
    await recordings.saveAnalysis(rec.id, { durationSeconds: probe.durationSeconds, waveform, hasVideo: probe.hasVideo });
    return probe.durationSeconds;
  }

  async function transcribe(rec: RecordingForJob, file: string, ctx: Pick<JobContext<unknown>, 'signal' | 'progress'>) {
    await recordings.markProcessing(rec.id);
    // The temp file, streamed by the adapter (and opened again for a retry or the fallback).
    const media = mediaFromFile(file, (await stat(file)).size);
    const result = await speech.transcribe(media, {
      mimeType: rec.mimeType ?? 'application/octet-stream',
      language: 'auto',
      // The English-only local recogniser refuses a speaker whose settings name another language (CONTRACTS §4).
      preferredLanguage: rec.preferredLanguage ?? undefined,
      userId: rec.userId,
      feature: 'recording-transcription',
      signal: ctx.signal,
      // A long local transcription reports each piece: the job's lease is extended as it goes.
      onProgress: (p) => ctx.progress({ transcribedSeconds: p.doneSeconds, totalSeconds: p.totalSeconds }),
    });
    await recordings.saveTranscript(rec.id, result);
  }

  const markFailed = (recordingId: string, message: string) => recordings.markFailed(recordingId, message);

  async function run(payload: { recordingId: string; analyze: boolean }, ctx: Pick<JobContext<unknown>, 'signal' | 'progress'>) {
    const rec = await recordings.forJob(payload.recordingId);
    if (!rec || !rec.storageKey) return { skipped: 'recording gone' };

    let fetched: { file: string; cleanup: () => Promise<void> } | undefined;
    try {
      const needsAnalysis = payload.analyze && (rec.durationSeconds === null || !rec.hasWaveform);
      if (needsAnalysis || speech.available) fetched = await download(rec.storageKey);
      const probed = needsAnalysis ? await analyze(rec, fetched!.file) : null;
      // The probed length when known (a client's duration may be wrong), else the stored one.
      const seconds = probed ?? rec.durationSeconds;
      if (seconds !== null && seconds > MAX_VOICE_SECONDS) {
        await markFailed(rec.id, VOICE_TOO_LONG);
        return { transcribed: false, reason: 'over the 30-minute voice limit' };
      }
      if (!speech.available) {
        await markFailed(rec.id, NOT_CONFIGURED_MESSAGE);
        return { transcribed: false, reason: 'not configured' };
      }
      await transcribe(rec, fetched!.file, ctx);
      return { transcribed: true };
    } finally {
      await fetched?.cleanup();
    }
  }

  return defineJob({
    kind: PROCESS_JOB,
    parse: (p) => payloadSchema.parse(p),
    // Long recordings take minutes to transcribe; a worker silent this long has died.
    leaseSeconds: 15 * 60,
    maxAttempts: 5,
    run: (ctx) => run(ctx.payload, ctx),
    retryable: (err) => (err instanceof ProviderError ? err.retryable : true),
    async onRetry({ recordingId }, err) {
      log.warn({ recordingId, err: failureMessage(err) }, 'recording job failed; retrying');
      await recordings.markRetrying(recordingId, failureMessage(err));
    },
    async onGiveUp({ recordingId }, err) {
      log.warn({ recordingId, err: failureMessage(err) }, 'recording job gave up');
      await markFailed(recordingId, failureMessage(err));
    },
    async onReclaimed({ recordingId }) {
      await recordings.resetProcessing(recordingId);
    },
  });
}

/** A runner on the core queue with only this kind (tests and scripts; the app defines it on its own runner). */
export function createRecordingWorker(deps: RecordingJobDeps & { workerId?: string }): JobRunner {
  return createJobRunner({ sql: deps.sql, queue: 'core', jobs: [recordingProcessJob(deps)], log: deps.log, workerId: deps.workerId });
}
