// Zip archives of a storyteller's memories (spec 000 "Archive"): portable entry names and the streaming zip
// port (exact length up front, any byte range, yazl underneath).
export * from './entry-names';
export * from './zip';
