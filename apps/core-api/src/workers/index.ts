// Background work of core-api: one runner of libs/jobs on the `core` queue (app.coreJobs, built by buildApp),
// with the kinds each feature area defines on it (recording.process, book.export; data-export.build,
// data-export.expire and account.purge_storage from features/privacy.register.ts). Tests drain it; main.ts
// starts its polling loop through runService's startWorkers.
import type { App } from '@story/http';

export { createRecordingWorker, recordingProcessJob, type RecordingJobDeps } from './recording-jobs.worker';

export async function startCoreWorkers({ app }: { app: App }): Promise<void> {
  app.coreJobs.start(1000);
}
