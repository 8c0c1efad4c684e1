export * from './evaluate';
export * from './store';
export * from './cache-bus';
export * from './plugin';
