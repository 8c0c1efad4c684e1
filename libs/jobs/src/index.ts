// One job runner for every background job of the three services (see job-runner.ts).
export * from './job-queue';
export * from './lease';
export * from './job-runner';
