// First: replaces postgres.js's queue module before anything below loads postgres.js (see the file).
export * from './postgres-queue';
export * from './client';
export * from './migrate';
export * from './embedded';
export * as schema from './schema';
export * from './schema';
export * from './errors';
export * from './open';
export * from './database-url';
export * from './test-database';
export * from './rows';
