// The books list by caller, kept in this process and validated on every request against the list's
// fingerprint (books.repository listFingerprint: each listed book's id and row version). With chapters, the
// list of 50 books of 40 chapters is a third of a megabyte that PostgreSQL would otherwise assemble and send
// on every request; a caller whose books did not change gets the bytes it already has, after one small
// query. Correct across replicas without any invalidation message: a change anywhere changes the fingerprint.
// Bounded by bytes, least recently used first out.

export interface CachedList {
  fingerprint: string;
  body: Buffer;
}

export function createBooksListCache({ maxBytes }: { maxBytes: number }) {
  // A Map keeps insertion order: re-inserting on each hit makes its first entry the least recently used.
  const entries = new Map<string, CachedList>();
  let bytes = 0;

  const drop = (key: string) => {
    const old = entries.get(key);
    if (!old) return;
    entries.delete(key);
    bytes -= old.body.length;
  };

  return {
    /** The cached list of `callerId` when it is still `fingerprint`'s, else undefined. */
    get(callerId: string, fingerprint: string): Buffer | undefined {
      const hit = entries.get(callerId);
      if (!hit || hit.fingerprint !== fingerprint) return undefined;
      entries.delete(callerId);
      entries.set(callerId, hit);
      return hit.body;
    },

    set(callerId: string, list: CachedList): void {
      drop(callerId);
      if (list.body.length > maxBytes) return;
      entries.set(callerId, list);
      bytes += list.body.length;
      for (const key of entries.keys()) {
        if (bytes <= maxBytes) break;
        drop(key);
      }
    },

    get size(): { entries: number; bytes: number } {
      return { entries: entries.size, bytes };
    },
  };
}

export type BooksListCache = ReturnType<typeof createBooksListCache>;
