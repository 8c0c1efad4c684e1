export { createTestDatabase, type TestDatabase, databaseUrl } from '@story/db';
export * from './env';
export * from './free-port';
export * from './openapi';
export * from './log-capture';
export * from './fake-http-server';
