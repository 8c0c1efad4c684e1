// Sweeping an existing bucket once (docs/reliability.md "Orphaned bytes"; tools/sweep-storage.ts runs it):
// objects under the per-account folders and the book-export folder that no row points to were left by
// code from before the upload sweep and the prefix erasure (an upload never registered, an erased
// account's strays). Each page of 1,000 listed keys is checked against every table that names storage
// (owned-files.ts referencedKeys). With `deleteOrphans`, the candidates are checked again after
// `settleMs`, so an object whose row was being written while the sweep listed it (a server-side upload
// commits its row a moment after its bytes) is kept; only then is it deleted.
import type { Sql } from 'postgres';
import type { ObjectStorage } from '@story/providers';
import { ACCOUNT_FOLDERS, referencedKeys } from './owned-files';

/** The folders the sweep lists: every per-account folder, and book exports (exports/books/<book id>). */
export const SWEPT_FOLDERS: readonly string[] = [...ACCOUNT_FOLDERS, 'exports/books'];

export interface SweepReport {
  folder: string;
  listed: number;
  orphaned: number;
  orphanedBytes: number;
  deleted: number;
  /** A few of the orphaned keys, for the operator to look at before deleting. */
  examples: string[];
}

export interface SweepOptions {
  sql: Sql;
  storage: Pick<ObjectStorage, 'list' | 'delete'>;
  /** false: only count (a dry run). */
  deleteOrphans: boolean;
  /** How long to wait before checking candidates again and deleting them (default 60 s). */
  settleMs?: number;
  folders?: readonly string[];
  onPage?: (report: SweepReport) => void;
}

export async function sweepBucket(options: SweepOptions): Promise<SweepReport[]> {
  const reports: SweepReport[] = [];
  for (const folder of options.folders ?? SWEPT_FOLDERS) {
    const report: SweepReport = { folder, listed: 0, orphaned: 0, orphanedBytes: 0, deleted: 0, examples: [] };
    const candidates: { key: string; size: number }[] = [];
    let cursor: string | undefined;
    do {
      const page = await options.storage.list(folder, { limit: 1000, ...(cursor ? { cursor } : {}) });
      cursor = page.nextCursor;
      report.listed += page.objects.length;
      const referenced = await referencedKeys(options.sql, page.objects.map((o) => o.key));
      for (const object of page.objects) {
        if (referenced.has(object.key)) continue;
        report.orphaned += 1;
        report.orphanedBytes += object.size;
        if (report.examples.length < 5) report.examples.push(object.key);
        if (options.deleteOrphans) candidates.push(object);
      }
      options.onPage?.(report);
    } while (cursor);
    if (options.deleteOrphans && candidates.length > 0) {
      await new Promise((resolve) => setTimeout(resolve, options.settleMs ?? 60_000));
      for (let i = 0; i < candidates.length; i += 1000) {
        const slice = candidates.slice(i, i + 1000);
        const nowReferenced = await referencedKeys(options.sql, slice.map((c) => c.key));
        for (const candidate of slice) {
          if (nowReferenced.has(candidate.key)) continue;
          await options.storage.delete(candidate.key);
          report.deleted += 1;
        }
      }
    }
    reports.push(report);
  }
  return reports;
}
