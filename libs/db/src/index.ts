export * from './client';
export * from './migrate';
export * from './embedded';
export * as schema from './schema';
export * from './schema';
export * from './errors';
export * from './open';
export * from './database-url';
export * from './rows';
