// The SQL of the settings tables, on Drizzle's builder. A section is read by user_id and written by an
// upsert of only the columns sent, so a partial PUT leaves every other column as it was and a user whose
// row was never made (an account from before signup made them) gets one. Columns are found by their
// snake_case names in the table definition, so the field names and the columns cannot drift apart.
import { eq, getTableColumns, sql } from 'drizzle-orm';
import { accounts, profiles, type Database, type DbOrTx } from '@story/db';
import type { SectionName } from './settings.fields';
import { SECTIONS } from './settings.fields';

type Row = Record<string, unknown>;
type Columns = Record<string, { name: string; default?: unknown }>;

/** snake_case column name → the table's property key. */
function columnKeys(columns: Columns): Map<string, string> {
  return new Map(Object.entries(columns).map(([key, column]) => [column.name, key]));
}

function toSnake(row: Row, columns: Columns, names: readonly string[]): Row {
  const keys = columnKeys(columns);
  return Object.fromEntries(names.map((name) => [name, row[keys.get(name) ?? name]]));
}

function toProps(values: Row, columns: Columns): Row {
  const keys = columnKeys(columns);
  const out: Row = {};
  for (const [name, value] of Object.entries(values)) {
    const key = keys.get(name);
    if (!key) throw new Error(`no column ${name}`);
    out[key] = value;
  }
  return out;
}

/** The column defaults by snake name: what a user without a row has. */
export function columnDefaults(columns: Columns, names: readonly string[]): Row {
  const byName = new Map(Object.values(columns).map((c) => [c.name, c.default]));
  // A nullable column without a default is null, as a fresh row would hold.
  return Object.fromEntries(names.map((name) => [name, byName.get(name) ?? null]));
}

export interface StoredSection {
  values: Row;
  updatedAt: Date | null;
}

export function createSettingsRepository(db: Database) {
  return {
    transaction: <T>(work: (tx: DbOrTx) => Promise<T>): Promise<T> => db.transaction(work),

    async readSection(section: SectionName, userId: string, tx: DbOrTx = db): Promise<StoredSection> {
      const { table, fields } = SECTIONS[section];
      const columns = getTableColumns(table) as Columns;
      const names = Object.keys(fields);
      const [row] = await tx.select().from(table).where(eq(table.userId, userId));
      if (!row) return { values: columnDefaults(columns, names), updatedAt: null };
      return { values: toSnake(row as Row, columns, names), updatedAt: (row as { updatedAt: Date }).updatedAt };
    },

    /** Insert the row with the sent columns (defaults elsewhere) or update only those columns. */
    async upsertSection(section: SectionName, userId: string, values: Row, tx: DbOrTx = db): Promise<void> {
      const { table } = SECTIONS[section];
      const props = toProps(values, getTableColumns(table) as Columns);
      await tx
        .insert(table)
        .values({ userId, ...props })
        .onConflictDoUpdate({ target: table.userId, set: { ...props, updatedAt: sql`now()` } });
    },

    async readProfile(userId: string, tx: DbOrTx = db) {
      const [row] = await tx
        .select({ profile: profiles, email: accounts.email, emailConfirmedAt: accounts.emailConfirmedAt })
        .from(accounts)
        .leftJoin(profiles, eq(profiles.id, accounts.id))
        .where(eq(accounts.id, userId));
      return row;
    },

    /** Profile columns by snake name; the profile row is made when missing (it is keyed by the account id). */
    async upsertProfile(userId: string, values: Row, tx: DbOrTx = db): Promise<void> {
      const props = toProps(values, getTableColumns(profiles) as Columns);
      if (!Object.keys(props).length) return;
      await tx
        .insert(profiles)
        .values({ id: userId, ...props })
        .onConflictDoUpdate({ target: profiles.id, set: { ...props, updatedAt: sql`now()` } });
    },

    async profileTimezone(userId: string, tx: DbOrTx = db): Promise<string> {
      const [row] = await tx.select({ timezone: profiles.timezone }).from(profiles).where(eq(profiles.id, userId));
      return row?.timezone ?? (getTableColumns(profiles).timezone.default as string);
    },
  };
}

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;

export const profileColumns = () => getTableColumns(profiles) as Columns;
