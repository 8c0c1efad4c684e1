// Data exports (spec 000 settings table user_data_exports; CONTRACTS §9 Data export). A row is what the user
// sees (pending -> processing -> completed | failed); a `data-export.build` job of the core runner, queued in
// the transaction that inserts the row, streams the file into storage. Finished files expire after
// EXPORT_TTL_DAYS; the recurring `data-export.expire` job deletes them from storage.
import type { Readable } from 'node:stream';
import type { Sql, TransactionSql } from 'postgres';
import { z } from 'zod';
import { defineJob } from '@story/jobs';
import { AppError, notFound } from '@story/http';
import { newObjectKey, type ObjectStorage, type StoredObject } from '@story/providers';
import { createDataExportRepository, type ExportFormat, type ExportRow } from './data-export.repository';
import { jsonExportStream, storiesPdf, zipExportStream } from './export-files';
import type { ExportType } from './owned-rows';

export const DATA_EXPORT_JOB = 'data-export.build';
export const DATA_EXPORT_EXPIRE_JOB = 'data-export.expire';
export const EXPORT_TTL_DAYS = 7;

export interface DataExportView {
  id: string;
  export_type: ExportType;
  format: ExportFormat;
  status: ExportRow['status'];
  file_url: string | null;
  file_size_bytes: number | null;
  expires_at: string | null;
  error: string | null;
  created_at: string;
  completed_at: string | null;
}

/** timestamptz columns arrive as text (Drizzle sets pass-through parsers on the shared postgres.js client). */
const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

export const downloadPath = (id: string) => `/api/user/data-exports/${id}/download`;

export const toView = (r: ExportRow): DataExportView => ({
  id: r.id,
  export_type: r.export_type,
  format: r.format,
  status: r.status,
  file_url: r.status === 'completed' && r.storage_key ? downloadPath(r.id) : null,
  file_size_bytes: r.file_size_bytes === null ? null : Number(r.file_size_bytes),
  expires_at: iso(r.expires_at),
  error: r.error,
  created_at: new Date(r.created_at).toISOString(),
  completed_at: iso(r.completed_at),
});

const CONTENT_TYPES: Record<ExportFormat, string> = { json: 'application/json', pdf: 'application/pdf', zip: 'application/zip' };

export type Download = { ready: true; object: StoredObject; fileName: string; contentType: string } | { ready: false; export: DataExportView };

export interface DataExportDeps {
  sql: Sql;
  storage: Pick<ObjectStorage, 'put' | 'get' | 'delete'>;
  /** Queue the build of an export row, in the transaction that inserts it. */
  queueBuild(exportId: string, tx: TransactionSql): Promise<void>;
  wakeRunner?: () => void;
  log: { error(obj: unknown, msg: string): void };
  now?: () => Date;
}

export function createDataExportService({ sql, storage, queueBuild, wakeRunner, log, now = () => new Date() }: DataExportDeps) {
  const repo = createDataExportRepository(sql);

  async function request(userId: string, exportType: ExportType, format: ExportFormat): Promise<DataExportView> {
    const row = await sql.begin(async (tx) => {
      const created = await repo.insert({ userId, exportType, format }, tx);
      await queueBuild(created.id, tx);
      return created;
    });
    wakeRunner?.();
    return toView(row);
  }

  /** The file of one export, streamed into storage (the PDF typeset first); its size once stored, or why it cannot be made. */
  async function build(row: ExportRow): Promise<{ key: string; size: number } | { refused: string }> {
    const key = newObjectKey(`data-exports/${row.user_id}`, row.format);
    let stream: Readable | Buffer;
    let done: Promise<unknown> = Promise.resolve();
    if (row.format === 'json') stream = jsonExportStream(sql, row.user_id, row.export_type);
    else if (row.format === 'pdf') {
      const who = await repo.accountName(row.user_id);
      const pdf = await storiesPdf(sql, { id: row.user_id, name: who?.full_name?.trim() || who?.email || 'you' }, now());
      if (!pdf.ok) return { refused: pdf.reason };
      stream = pdf.pdf;
    } else {
      const zip = await zipExportStream(sql, storage, row, now());
      stream = zip.stream;
      done = zip.done;
    }
    const [stored] = await Promise.all([storage.put(key, stream, { contentType: CONTENT_TYPES[row.format] }), done]);
    return { key, size: stored.size };
  }

  const buildJob = defineJob({
    kind: DATA_EXPORT_JOB,
    parse: (p) => z.object({ exportId: z.uuid() }).parse(p),
    leaseSeconds: 30 * 60,
    maxAttempts: 3,
    async run({ payload }) {
      const row = await repo.start(payload.exportId);
      if (!row) return { skipped: true };
      const out = await build(row);
      // A refusal the user can act on (a character no font draws) is final.
      if ('refused' in out) {
        await repo.fail(row.id, out.refused);
        return { refused: true };
      }
      const expiresAt = new Date(now().getTime() + EXPORT_TTL_DAYS * 86400_000);
      // The account was erased while building: the file has no owner left.
      if (!(await repo.complete(row.id, { storageKey: out.key, size: out.size, fileUrl: downloadPath(row.id), expiresAt }))) await storage.delete(out.key);
      return { size: out.size };
    },
    async onRetry({ exportId }, err) {
      log.error({ err, exportId }, 'data export failed; retrying');
    },
    async onGiveUp({ exportId }) {
      await repo.fail(exportId, 'The export could not be produced');
    },
  });

  const expireJob = defineJob({
    kind: DATA_EXPORT_EXPIRE_JOB,
    parse: () => ({}),
    everySeconds: 3600,
    async run() {
      let removed = 0;
      for (const row of await repo.expired(500)) {
        await storage.delete(row.storage_key);
        await repo.forgetFile(row.id);
        removed += 1;
      }
      return { removed };
    },
  });

  async function open(row: ExportRow): Promise<Download> {
    if (row.status === 'failed') throw new AppError('conflict', `This export failed: ${row.error ?? 'unknown error'}. Ask for a new one.`);
    if (row.status !== 'completed') return { ready: false, export: toView(row) };
    if (!row.storage_key || (row.expires_at && new Date(row.expires_at) <= now())) throw new AppError('gone', 'This export has expired. Ask for a new one.');
    const object = await storage.get(row.storage_key);
    const stamp = new Date(row.completed_at ?? row.created_at).toISOString().slice(0, 10);
    return { ready: true, object, fileName: `data-export-${row.export_type}-${stamp}.${row.format}`, contentType: CONTENT_TYPES[row.format] };
  }

  return {
    jobs: [buildJob, expireJob] as const,
    request,

    async list(userId: string): Promise<DataExportView[]> {
      return (await repo.list(userId)).map(toView);
    },

    async get(userId: string, id: string): Promise<DataExportView> {
      const row = await repo.find(userId, id);
      if (!row) throw notFound('Export');
      return toView(row);
    },

    /** One export's file (or, while it is being made, the export itself). */
    async download(userId: string, id: string): Promise<Download> {
      const row = await repo.find(userId, id);
      if (!row) throw notFound('Export');
      return open(row);
    },

    /**
     * GET /api/user/data-export: the newest completed, unexpired export of `format` (type all) as a file;
     * else the one being made; else a new one is queued. The last two answer the export (202).
     */
    async current(userId: string, format: ExportFormat): Promise<Download> {
      const row = await repo.newestUsable(userId, format, 'all');
      if (row) return open(row);
      return { ready: false, export: await request(userId, 'all', format) };
    },
  };
}

export type DataExportService = ReturnType<typeof createDataExportService>;
