// Transcriptions take turns: each inference thread already uses the cores it was given, so running more
// side by side only makes every one of them slower and multiplies the memory. A caller waits here (in
// order of arrival) until a thread is free; a caller whose signal fires while waiting leaves the line.

export interface Turns {
  /** Run `work` with one of the threads, waiting for a free one first. */
  run<T>(work: (slot: number) => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Callers waiting (for tests and /health). */
  readonly waiting: number;
}

export function createTurns(slots: number, onCancelled: () => Error): Turns {
  const free = Array.from({ length: slots }, (_, i) => i);
  const line: { grant: (slot: number) => void; signal?: AbortSignal }[] = [];

  function release(slot: number) {
    const next = line.shift();
    if (next) next.grant(slot);
    else free.push(slot);
  }

  return {
    get waiting() {
      return line.length;
    },
    async run(work, signal) {
      if (signal?.aborted) throw onCancelled();
      const slot =
        free.pop() ??
        (await new Promise<number>((resolve, reject) => {
          const entry = {
            signal,
            grant: (s: number) => {
              signal?.removeEventListener('abort', onAbort);
              resolve(s);
            },
          };
          const onAbort = () => {
            const at = line.indexOf(entry);
            if (at >= 0) line.splice(at, 1);
            reject(onCancelled());
          };
          signal?.addEventListener('abort', onAbort, { once: true });
          line.push(entry);
        }));
      try {
        return await work(slot);
      } finally {
        release(slot);
      }
    },
  };
}
