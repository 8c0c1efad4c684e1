// Provider SDKs load on first use, not at import: loading them all cost a service seconds at start
// (ElevenLabs' SDK alone took over two), while a deployment configures only a few. Each adapter keeps a
// literal `require('<sdk>')` inside its loader, so bundlers still see and list the dependency.

/** Memoise a module loader: the first call loads the module, later calls return the same one. */
export function lazyModule<T>(load: () => T): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load());
}
