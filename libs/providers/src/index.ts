// Provider capabilities (storage, speech-to-text, text-to-speech, LLM, email delivery): see README.md.
export * from './provider-error';
export * from './shared/resilience';
export * from './shared/usage';
export * from './storage';
export * from './email';
export * from './billing';
export * from './llm';
export * from './speech-to-text';
export * from './text-to-speech';
export * from './providers';
export * from './media-binaries';
export * from './process-spawner';
export * from './text';
