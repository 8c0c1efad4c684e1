// SQL of the editorial records, one set of queries for every kind of content-kinds.ts. The table is a
// parameter, so columns are looked up by name; every method takes an optional transaction.
import { and, count, desc, eq, getTableColumns, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { contentBlocks, resources, type Database, type DbOrTx } from '@story/db';

type Row = Record<string, unknown> & { id: string };

export interface ListFilter {
  status?: string;
  search?: string;
  limit: number;
  offset: number;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export function createContentRepository(db: Database) {
  function cols(table: PgTable) {
    return getTableColumns(table) as unknown as Record<string, AnyPgColumn>;
  }
  const idOf = (table: PgTable) => cols(table)['id']!;

  return {
    /** Whether the table has this (camelCase) column, for who-stamps that only some tables carry. */
    hasColumn: (table: PgTable, name: string) => name in cols(table),

    transaction: <T>(fn: (tx: DbOrTx) => Promise<T>) => db.transaction(fn),

    async list(table: PgTable, searchColumns: readonly string[], filter: ListFilter, tx: DbOrTx = db) {
      const c = cols(table);
      const conditions: SQL[] = [];
      if (filter.status && c['status']) conditions.push(eq(c['status'], filter.status));
      if (filter.search) {
        const pattern = `%${likeEscape(filter.search)}%`;
        const any = or(...searchColumns.map((name) => ilike(c[name]!, pattern)));
        if (any) conditions.push(any);
      }
      const where = conditions.length ? and(...conditions) : undefined;
      const rows = (await tx.select().from(table).where(where).orderBy(desc(c['createdAt']!), desc(c['id']!)).limit(filter.limit).offset(filter.offset)) as Row[];
      const [total] = await tx.select({ n: count() }).from(table).where(where);
      return { rows, total: Number(total?.n ?? 0) };
    },

    async get(table: PgTable, id: string, tx: DbOrTx = db, lock = false): Promise<Row | undefined> {
      const query = tx.select().from(table).where(eq(idOf(table), id));
      const [row] = (await (lock ? query.for('update') : query)) as Row[];
      return row;
    },

    async insert(table: PgTable, values: Record<string, unknown>, tx: DbOrTx = db): Promise<Row> {
      const [row] = (await tx.insert(table).values(values as never).returning()) as Row[];
      return row!;
    },

    async update(table: PgTable, id: string, values: Record<string, unknown>, tx: DbOrTx = db): Promise<Row | undefined> {
      const [row] = (await tx.update(table).set({ ...values, updatedAt: new Date() } as never).where(eq(idOf(table), id)).returning()) as Row[];
      return row;
    },

    async remove(table: PgTable, id: string, tx: DbOrTx = db): Promise<Row | undefined> {
      const [row] = (await tx.delete(table).where(eq(idOf(table), id)).returning()) as Row[];
      return row;
    },

    async publishedBlock(key: string) {
      const [row] = await db.select().from(contentBlocks).where(and(eq(contentBlocks.key, key), eq(contentBlocks.status, 'published')));
      return row;
    },

    /**
     * One atomic statement: the increment happens in the UPDATE itself, so concurrent downloads never
     * read-modify-write the same count. Only published resources are countable.
     */
    async incrementDownload(id: string) {
      const [row] = await db
        .update(resources)
        .set({ downloadCount: sql`${resources.downloadCount} + 1` })
        .where(and(eq(resources.id, id), eq(resources.status, 'published')))
        .returning({ id: resources.id, downloadCount: resources.downloadCount, url: resources.url, storageKey: resources.storageKey });
      return row;
    },
  };
}

export type ContentRepository = ReturnType<typeof createContentRepository>;
