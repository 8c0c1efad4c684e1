export * from './env';
export * from './load';
export * from './secrets';
export * from './platform-config';
export * from './version';
export * from './trust-proxy';
export * from './oauth';
