// Streaming zip archives of a storyteller's memories (spec 000 "Archive").
export * from './entry-names';
