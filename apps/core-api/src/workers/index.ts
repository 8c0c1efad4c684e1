// Background work of core-api. buildApp creates the job worker (so tests can run it with
// app.coreJobWorker.runOnce()); main.ts starts its polling loop through runService's startWorkers.
import type { App } from '@story/http';

export { createRecordingWorker, type RecordingWorkerDeps } from './recording-jobs.worker';

export async function startCoreWorkers({ app }: { app: App }): Promise<void> {
  app.coreJobs.start(1000);
  app.coreJobWorker.start(1000);
}
