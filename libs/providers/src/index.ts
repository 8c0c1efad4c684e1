// Provider capabilities (storage, speech-to-text, text-to-speech, LLM, email delivery): see README.md.
export * from './provider-error';
export * from './shared/resilience';
export * from './shared/usage';
