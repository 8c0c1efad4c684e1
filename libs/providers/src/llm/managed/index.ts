export * from './ttl-cache';
export * from './prompt-store';
export * from './feature-router';
export * from './managed-language-model';
