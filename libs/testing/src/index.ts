export { createTestDatabase, type TestDatabase, databaseUrl } from '@story/db';
export * from './env';
export * from './free-port';
export * from './openapi';
export * from './log-capture';
export * from './fuzz/run-fuzz';
export type { Actors } from './fuzz/openapi-requests';
export * from './fuzz/budget';
export * from './fake-http-server';
