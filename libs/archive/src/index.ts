// Zip archive helpers for a storyteller's memories (spec 000 "Archive"). Today only the entry-name rules
// exist; the streaming zip comes with the memories and archive issue.
export * from './entry-names';
