// One limiter (the Limits sections of spec 000, 001 and 002): the table of named limits, its two stores
// (short windows through @fastify/rate-limit, persisted counts in PostgreSQL) and the 429 answers they give.
export * from './limit-table';
export * from './window-store';
export * from './counter-store';
export * from './refusals';
