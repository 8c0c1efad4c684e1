// Where a value still appears in the database, looked for in every text-like column of every table
// (uuid, text, varchar, jsonb, arrays), so an erasure test needs no list of tables to stay true.
import type { Sql } from 'postgres';

/** `table.column` -> number of rows whose value contains `needle` (case-insensitive); only non-zero entries. */
export async function traces(sql: Sql, needle: string): Promise<Record<string, number>> {
  const columns = await sql<{ table_name: string; column_name: string }[]>`
    select c.table_name, c.column_name from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
     where c.table_schema = 'public' and (c.data_type in ('uuid', 'text', 'character varying', 'jsonb', 'json', 'ARRAY'))
     order by 1, 2`;
  const found: Record<string, number> = {};
  const lower = needle.toLowerCase();
  for (const { table_name: t, column_name: c } of columns) {
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from ${sql(t)} where strpos(lower(${sql(c)}::text), ${lower}) > 0`;
    if (row && row.n > 0) found[`${t}.${c}`] = row.n;
  }
  return found;
}
