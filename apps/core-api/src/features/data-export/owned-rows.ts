// Every row an account owns, read from the database's own foreign keys rather than a hand-kept list, so
// a table added later is exported without anyone remembering to: a row is the account's when one of its
// columns references accounts.id, and a row one step below such a row (a cascading child: messages of
// a conversation, chapters of a book, members of an owned group) belongs with it. Secrets (password
// hashes, token hashes, codes) never leave, and tables that only hold sign-in machinery are skipped.
import type { Sql } from 'postgres';
import { redactQueuedEmail } from '@story/email';

export type ExportType = 'stories' | 'profile' | 'all';

/** One table to read: rows where `column` is the user, or (child) where `column` points at a parent row that is. */
export interface OwnedSource {
  table: string;
  column: string;
  parent?: { table: string; column: string };
}

/** Sign-in machinery and administrators' records: nothing in them is the person's content. */
const SKIPPED = new Set(['auth_sessions', 'auth_refresh_tokens', 'magic_link_tokens', 'email_verification_tokens', 'oauth_exchange_codes', 'admin_impersonations', 'jobs']);

/** Columns never exported, whatever the table (matched on the name). */
const SECRET_COLUMN = /(password|secret|token|hash|_code$|^code$|search_vector|storage_key|thumbnail_key)/;

/** Copies of a row's own columns kept for fast lists (campaigns.list_item_json, books.summary_json): nothing new in them. */
const DERIVED_COLUMN = /^(list_item_json|summary_json)$/;

const PROFILE_TABLES = new Set([
  'accounts', 'profiles', 'user_settings', 'user_notification_settings', 'user_grammar_settings', 'user_privacy_settings',
  'user_voice_settings', 'user_email_preferences', 'consent_records', 'user_devices', 'auth_identities', 'achievement_progress',
]);
const STORY_TABLES = new Set([
  'stories', 'campaigns', 'books', 'book_chapters', 'recordings', 'conversations', 'conversation_messages', 'images',
  'story_conversions', 'story_shares', 'imports', 'family_memories',
]);

export function typeIncludes(type: ExportType, table: string): boolean {
  if (type === 'all') return true;
  return (type === 'profile' ? PROFILE_TABLES : STORY_TABLES).has(table);
}

/** The sources, from pg_catalog: direct references to accounts.id, then cascading children of those tables. */
export async function ownedSources(sql: Sql): Promise<OwnedSource[]> {
  const fks = await sql<{ tbl: string; col: string; ref: string; refcol: string; cascade: boolean }[]>`
    select c.conrelid::regclass::text as tbl, a.attname as col, c.confrelid::regclass::text as ref, fa.attname as refcol,
           c.confdeltype = 'c' as cascade
      from pg_constraint c
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
      join pg_attribute fa on fa.attrelid = c.confrelid and fa.attnum = c.confkey[1]
     where c.contype = 'f' and cardinality(c.conkey) = 1 and c.connamespace = 'public'::regnamespace
     order by 1, 2`;
  const direct = fks.filter((f) => f.ref === 'accounts' && !SKIPPED.has(f.tbl));
  const sources: OwnedSource[] = [{ table: 'accounts', column: 'id' }, ...direct.map((f) => ({ table: f.tbl, column: f.col }))];
  const ownedTables = new Set(direct.map((f) => f.tbl));
  for (const f of fks) {
    if (!f.cascade || f.refcol !== 'id' || f.ref === 'accounts' || !ownedTables.has(f.ref) || SKIPPED.has(f.tbl)) continue;
    for (const owner of direct.filter((d) => d.tbl === f.ref)) sources.push({ table: f.tbl, column: f.col, parent: { table: f.ref, column: owner.col } });
  }
  return sources;
}

/**
 * The exportable columns of every table, in the order `select *` gives them (attnum): secrets and derived
 * copies are left out of the select list, so PostgreSQL never sends them (a story's search_vector is most of its row) and no
 * row has to be filtered here.
 */
async function exportedColumns(sql: Sql): Promise<Map<string, string[]>> {
  const rows = await sql<{ tbl: string; cols: string[] }[]>`
    select a.attrelid::regclass::text as tbl, array_agg(a.attname::text order by a.attnum) as cols
      from pg_attribute a join pg_class c on c.oid = a.attrelid
     where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
     group by 1`;
  return new Map(rows.map((r) => [r.tbl, r.cols.filter((col) => !SECRET_COLUMN.test(col) && !DERIVED_COLUMN.test(col))]));
}

// Identifiers come from pg_catalog (never from a request) and are quoted by sql(...).
const whereOwned = (sql: Sql, source: OwnedSource, userId: string) =>
  source.parent
    ? sql`${sql(source.column)} in (select p.id from ${sql(source.parent.table)} p where p.${sql(source.parent.column)} = ${userId})`
    : sql`${sql(source.column)} = ${userId}`;

/** Rows read in one go: a source holding more is read through a cursor, this many rows at a time. */
const BATCH_ROWS = 200;
/** Sources of at most BATCH_ROWS rows whose query is sent ahead of the one being written (see ownedRowsJson). */
const SOURCES_AHEAD = 8;

const selectOwned = (sql: Sql, source: OwnedSource, columns: readonly string[], userId: string) =>
  // No exportable column at all: rows still count, as empty objects.
  sql`select ${columns.length > 0 ? sql(columns as string[]) : sql``} from ${sql(source.table)} where ${whereOwned(sql, source, userId)}`;

/** The rows of one source (only `columns`), in batches through a cursor (a table of 100,000 rows is never held at once). */
export async function* sourceRows(sql: Sql, source: OwnedSource, columns: readonly string[], userId: string): AsyncGenerator<readonly Record<string, unknown>[]> {
  for await (const batch of selectOwned(sql, source, columns, userId).cursor(BATCH_ROWS)) yield batch as Record<string, unknown>[];
}

/**
 * How many rows each source holds, counted up to BATCH_ROWS + 1 (enough to tell a small source from a big
 * one), in one round trip; sources without a row are left out. Most of the hundred-odd sources are empty
 * for any one account, and a query costs a round trip even when it finds nothing.
 */
async function rowCounts(sql: Sql, sources: readonly OwnedSource[], userId: string): Promise<Map<number, number>> {
  if (sources.length === 0) return new Map();
  const probes = sources.map(
    (s, i) => sql`select ${i}::int as i, count(*)::int as n from (select from ${sql(s.table)} where ${whereOwned(sql, s, userId)} limit ${BATCH_ROWS + 1}) x having count(*) > 0`,
  );
  const union = probes.slice(1).reduce((acc, probe) => sql`${acc} union all ${probe}`, probes[0] as (typeof probes)[number]);
  return new Map((await sql<{ i: number; n: number }[]>`${union}`).map((r) => [r.i, r.n]));
}

const label = (s: OwnedSource) => (s.parent ? `${s.table} (of ${s.parent.table}.${s.parent.column})` : s.column === 'id' || s.column === 'user_id' ? s.table : `${s.table} (${s.column})`);

type Row = Record<string, unknown>;

/**
 * Queued emails as the export shows them (CONTRACTS §7): only mail to the address the account has verified,
 * and never a credential (a verification or sign-in link, an invitation, a gift code: libs/email
 * redactQueuedEmail). Someone who signed up with another person's address exports none of their mail.
 */
function queuedEmailView(account: { email: string; verified: boolean } | undefined) {
  return (row: Row): Row | null => {
    if (!account?.verified || typeof row['to_email'] !== 'string' || row['to_email'].toLowerCase() !== account.email.toLowerCase()) return null;
    const shown = redactQueuedEmail({
      subject: String(row['subject'] ?? ''),
      html: String(row['html_content'] ?? ''),
      text: typeof row['text_content'] === 'string' ? row['text_content'] : null,
      variables: (row['template_variables'] as Record<string, unknown> | null) ?? {},
      sensitiveVariables: (row['sensitive_variables'] as string[] | null) ?? [],
    });
    return { ...row, subject: shown.subject, html_content: shown.html, text_content: shown.text, template_variables: shown.variables };
  };
}

/**
 * The export as JSON text, yielded piece by piece: `{"exportedAt", "userId", "exportType", "tables": {name: [rows]}}`.
 * Every source is listed, empty ones as [], so a reader sees what was looked at.
 */
export async function* ownedRowsJson(sql: Sql, userId: string, type: ExportType, now = new Date()): AsyncGenerator<string> {
  const [all, columns, [account]] = await Promise.all([
    ownedSources(sql),
    exportedColumns(sql),
    sql<{ email: string; verified: boolean }[]>`select email, email_confirmed_at is not null as verified from accounts where id = ${userId}`,
  ]);
  /** Tables whose rows are shown through a view of their own; null leaves the row out. */
  const views: Record<string, (row: Row) => Row | null> = { email_send_queue: queuedEmailView(account) };
  const sources = all.filter((s) => typeIncludes(type, s.table));
  const counts = await rowCounts(sql, sources, userId);
  const columnsOf = (s: OwnedSource) => columns.get(s.table) ?? [];
  // Most sources hold a few rows: one query each, sent a few sources ahead so they pipeline on the pool
  // instead of each waiting its round trip (at most SOURCES_AHEAD x BATCH_ROWS rows held). Big sources go
  // through a cursor when their turn comes.
  const small = [...counts].filter(([, n]) => n <= BATCH_ROWS).map(([i]) => i);
  const ahead = new Map<number, Promise<readonly Record<string, unknown>[]>>();
  let nextSmall = 0;
  const sendAhead = () => {
    while (ahead.size < SOURCES_AHEAD && nextSmall < small.length) {
      const i = small[nextSmall++]!;
      const rows = selectOwned(sql, sources[i]!, columnsOf(sources[i]!), userId).then((r) => r as readonly Record<string, unknown>[]);
      // Awaited in its turn; if the export stops first, its failure must not go unhandled.
      rows.catch(() => undefined);
      ahead.set(i, rows);
    }
  };
  yield `{"exportedAt":${JSON.stringify(now.toISOString())},"userId":${JSON.stringify(userId)},"exportType":${JSON.stringify(type)},"tables":{`;
  let firstTable = true;
  for (const [i, source] of sources.entries()) {
    const head = `${firstTable ? '' : ','}\n${JSON.stringify(label(source))}:[`;
    firstTable = false;
    if (!counts.has(i)) {
      yield `${head}]`;
      continue;
    }
    sendAhead();
    const batches = ahead.has(i) ? [await ahead.get(i)!] : sourceRows(sql, source, columnsOf(source), userId);
    ahead.delete(i);
    let text = head;
    let first = true;
    const view = views[source.table];
    // One piece per batch of rows, not per row.
    for await (const batch of batches) {
      for (const raw of batch) {
        const row = view ? view(raw) : raw;
        if (row === null) continue;
        text += (first ? '\n' : ',\n') + JSON.stringify(row);
        first = false;
      }
      yield text;
      text = '';
    }
    yield `${text}]`;
  }
  yield '\n}}\n';
}
