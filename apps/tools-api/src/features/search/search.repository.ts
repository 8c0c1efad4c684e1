// The embedded search engine: PostgreSQL full-text over tools_search, the one table the triggers of
// migration tools_search keep in step with the sixteen content tables and tools_responses (one GIN index,
// one btree newest first). Raw postgres.js; who sees what is shared/visibility.ts, applied in the WHERE.
//
// One query answers most searches: the newest SAMPLE visible matches (with their rank). A rare word's
// few matches are read from the GIN index and sorted; a common word walks the created_at index and
// stops after SAMPLE matches, so it costs a few hundred rows at any table size. Which is which comes from
// ANALYZE's lexeme statistics (queryStats, cached per query text: they only change with ANALYZE), not
// from the planner's guess.
//  - Fewer than SAMPLE matches: every match is known, so counts and every order are exact.
//  - SAMPLE matches: counts are estimated (the planner's row estimate shared out as the sample is) and
//    capped at COUNT_CAP; date order stays exact, relevance and popularity rank the newest CANDIDATES
//    (or page x limit) matches.
// Snippets are made for the page's rows only (excerpts), in JavaScript around the query's lexemes:
// ts_headline parses every word of every body again (a fifth of a millisecond per 700-character item,
// most of a common search's database time).
import type postgres from 'postgres';
import { TOOL_ROUTES, type ToolRoute } from '@story/db';
import { toolTableName } from '../../shared/tool-param';
import { listedContentSql, liveContentSql, ownRowsSql, visibleContentSql, visibleResponsesSql } from '../../shared/visibility';
import { CANDIDATES, COUNT_CAP, type CountRow, type HitRow, type SearchCaller, type SearchEngine, type SearchPage, type SearchQuery } from './search.port';

/** Newest visible matches read per search; must be >= COUNT_CAP so a saturated sample means "capped". */
export const SAMPLE = COUNT_CAP;
/** Below this share of rows, a word's matches are read from the GIN index; above it, newest first. */
export const RARE_SHARE = 0.01;

/** How long a query text's lexeme statistics are reused, and how many query texts are remembered. */
export const STATS_TTL_MS = 5 * 60_000;
const STATS_CACHE_SIZE = 2_000;

type Fragment = postgres.PendingQuery<postgres.Row[]>;

interface QueryStats {
  rare: boolean;
  /** The query's positive lexemes (stemmed, as in the vector). */
  lexemes: string[];
  /** Visible matches estimated from the statistics; null when they cannot tell. */
  estimate: number | null;
}

/** Snippet shape, as ts_headline's MaxWords=30, MaxFragments=2 gave: up to two 30-word windows around matches. */
const FRAGMENT_WORDS = 30;
const MAX_FRAGMENTS = 2;

/** Whether a word of the text is a form of a stemmed lexeme ("lighthouses" of lighthous, "happy" of happi). */
function matchesLexeme(word: string, lexeme: string): boolean {
  if (word.startsWith(lexeme)) return true;
  // The English stemmer rewrites a final y/e (happy -> happi, stories -> stori): all but the lexeme's last letter agree.
  return lexeme.length >= 4 && word.length >= lexeme.length - 1 && word.length <= lexeme.length + 3 && word.startsWith(lexeme.slice(0, -1));
}

/** Every string inside a json value, in document order (keys left out). */
export function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) stringsOf(v, out);
  return out;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Whitespace-separated tokens of `text` with their offsets. */
function tokens(text: string, offset: number, max = Infinity): { word: string; start: number; end: number }[] {
  const out: { word: string; start: number; end: number }[] = [];
  const re = /\S+/g;
  for (let m = re.exec(text); m && out.length < max; m = re.exec(text)) out.push({ word: m[0], start: offset + m.index, end: offset + m.index + m[0].length });
  return out;
}
/** Characters looked at on each side of a match: FRAGMENT_WORDS words of any sane length. */
const REACH = 2_000;

/**
 * A snippet of `body` around the words matching `lexemes`: up to MAX_FRAGMENTS windows of FRAGMENT_WORDS
 * words, each centred on a match, in text order, joined by " … "; the text's first words when nothing matches.
 * The text is searched with one regular expression and cut only around the matches, so a long item (a
 * 300-card deck is 50 KB) costs no more than a short one once its first matches are found.
 */
export function excerptOf(body: string, lexemes: string[]): string {
  const stems = [...new Set(lexemes.flatMap((lx) => (lx.length >= 4 ? [lx, lx.slice(0, -1)] : lx ? [lx] : [])))];
  const windows: string[] = [];
  if (stems.length) {
    const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${stems.map(escapeRegExp).join('|')})`, 'giu');
    let floor = 0;
    for (let m = re.exec(body); m && windows.length < MAX_FRAGMENTS; m = re.exec(body)) {
      const word = (/^[\p{L}\p{N}]+/u.exec(body.slice(m.index, m.index + 100))?.[0] ?? '').toLowerCase();
      if (m.index < floor || !lexemes.some((lx) => matchesLexeme(word, lx))) continue;
      // The whole whitespace-separated token the match is in ("(lighthouse," starts at its bracket).
      let at = m.index;
      while (at > floor && !/\s/.test(body[at - 1]!)) at--;
      const after = tokens(body.slice(at, at + REACH), at, FRAGMENT_WORDS);
      // Enough text back for FRAGMENT_WORDS ordinary words; the whole reach only when they are long.
      let from = Math.max(floor, at - 400);
      if (from > floor && tokens(body.slice(from, at), from).length < FRAGMENT_WORDS) from = Math.max(floor, at - REACH);
      let before = tokens(body.slice(from, at), from);
      // A token cut by the reach is not a word of the text.
      if (from > floor && before[0] && before[0].start === from && !/\s/.test(body[from - 1] ?? ' ')) before = before.slice(1);
      const nAfter = Math.min(after.length, FRAGMENT_WORDS - Math.min(Math.floor(FRAGMENT_WORDS / 2), before.length));
      const nBefore = Math.min(before.length, FRAGMENT_WORDS - nAfter);
      const taken = [...before.slice(before.length - nBefore), ...after.slice(0, nAfter)];
      windows.push(taken.map((t) => t.word).join(' '));
      floor = taken[taken.length - 1]?.end ?? at + 1;
      re.lastIndex = Math.max(re.lastIndex, floor);
    }
  }
  if (windows.length) return windows.join(' … ');
  return tokens(body.slice(0, REACH), 0, FRAGMENT_WORDS)
    .map((t) => t.word)
    .join(' ');
}

const key = (tool: string, type: string) => `${tool}|${type}`;

type Row = Omit<HitRow, 'rank'> & { rank: number | null; popularity: number };

/** Sort rows as the query asks (the same keys the SQL used before: rank, popularity, date; id last). */
export function orderRows<T extends Row>(rows: T[], sort: SearchQuery['sort']): T[] {
  // Each row's time parsed once, not at every comparison.
  const times = new Map(rows.map((r) => [r, new Date(r.created_at).getTime()]));
  const time = (r: T) => times.get(r) ?? 0;
  const byDate = (a: T, b: T) => time(b) - time(a) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
  const cmp =
    sort === 'relevance'
      ? (a: T, b: T) => (b.rank ?? 0) - (a.rank ?? 0) || byDate(a, b)
      : sort === 'popular'
        ? (a: T, b: T) => b.popularity - a.popularity || (b.rank ?? 0) - (a.rank ?? 0) || byDate(a, b)
        : byDate;
  return [...rows].sort(cmp);
}

export function createSearchRepository(sql: postgres.Sql): SearchEngine {
  const statsCache = new Map<string, { at: number; stats: QueryStats }>();
  const unionAll = (parts: Fragment[]): Fragment => parts.reduce((acc, part) => sql`${acc} union all ${part}`);
  const s = sql`s`;

  /** Visible rows of tools_search for this caller and public filter (both kinds). */
  function visibleSql(caller: SearchCaller, isPublic: boolean | undefined): Fragment {
    const own = ownRowsSql(sql, s, caller);
    const content =
      isPublic === undefined
        ? visibleContentSql(sql, s, caller)
        : isPublic
          ? sql`${liveContentSql(sql, s)} and ${listedContentSql(sql, s)}`
          : own
            ? sql`${liveContentSql(sql, s)} and ${own} and not s.is_public`
            : sql`false`;
    return sql`((s.kind = 'content' and ${content}) or (s.kind = 'responses' and s.deleted_at is null and ${visibleResponsesSql(sql, s, caller, isPublic)}))`;
  }

  /**
   * The newest `limit` visible matches. Ranking is the costly part of a common word (ts_rank, a fifth of
   * ts_rank_cd's cost at the same order here), so only the first `ranked` rows are ranked unless the
   * sample holds every match; the others get rank null and are left out of relevance and popularity.
   */
  async function newest(tsq: Fragment, visible: Fragment, filter: Fragment, limit: number, ranked: number, rare: boolean): Promise<Row[]> {
    // A rare word: every match from the GIN index alone, then filtered and sorted. OFFSET 0 fences the
    // index scan off from the visibility filter: with the filter inside, the planner ANDed the GIN bitmap
    // with a bitmap of every listed row (400,000 entries read, 600 ms at 1M rows) or walked the created_at
    // index hoping to meet the word early. A common one: walk newest first and stop at `limit`.
    const matches = rare
      ? sql`select s.* from (select s.* from tools_search s where s.search_vector @@ ${tsq} offset 0) s
            where ${visible} ${filter}
            order by s.created_at desc, s.id desc limit ${limit}`
      : sql`select s.* from tools_search s where s.search_vector @@ ${tsq} and ${visible} ${filter}
            order by s.created_at desc, s.id desc limit ${limit}`;
    return sql<Row[]>`
      select m.tool, m.kind as type, m.id, m.title, m.share_code, m.prompt_id, m.created_at, m.view_count as popularity, m.keywords,
             case when m.n <= ${ranked} or m.total < ${limit} then ts_rank(m.search_vector, ${tsq}, 32) end as rank
      from (select s.*, row_number() over (order by s.created_at desc, s.id desc) as n, count(*) over () as total from (${matches}) s) m
      order by m.n`;
  }

  /**
   * The query's statistics from ANALYZE's statistics of the vector: the share of rows holding its rarest
   * positive lexeme (its most common one when the query has an OR), and its positive lexemes (for the
   * snippets). Rare below RARE_SHARE. The planner's own guess cannot be trusted here: a word missing from
   * the statistics looks common enough to walk the created_at index, which then reads the whole table for
   * a word in one row of 5,000. Cached per query text for STATS_TTL_MS (they change with ANALYZE only).
   */
  async function queryStats(q: string): Promise<QueryStats> {
    const cached = statsCache.get(q);
    if (cached && cached.at > Date.now() - STATS_TTL_MS) return cached.stats;
    const [r] = await sql<{ freq: number | null; lexemes: string[] | null; negated: boolean; listed: number | null }[]>`
      with tq as (select querytree(websearch_to_tsquery('english', ${q})) as tree),
           lx as (select m[1] as lexeme from tq, regexp_matches(tq.tree, '(?<!!)''([^'']+)''', 'g') m),
           st as (select most_common_elems::text::text[] as e, most_common_elem_freqs as f from pg_stats
                  where schemaname = 'public' and tablename = 'tools_search' and attname = 'search_vector')
      select case when (select tree from tq) like '%|%' then max(coalesce(st.f[array_position(st.e, lx.lexeme)], 0))
                  else min(coalesce(st.f[array_position(st.e, lx.lexeme)], 0)) end as freq,
             array_remove(array_agg(distinct lx.lexeme), null) as lexemes, (select tree from tq) like '%!%' as negated,
             (select c.reltuples::float8 from pg_class c where c.oid = to_regclass('tools_search_listed_idx') and c.reltuples > 0) as listed
      from lx left join st on true`;
    const lexemes = r?.lexemes ?? [];
    // Only exclusions ("-word") match most rows: walk. No lexeme at all (stop words) matches nothing: the index says so at once.
    const rare = !r ? true : lexemes.length === 0 ? !r.negated : (r.freq ?? 0) < RARE_SHARE;
    // A word in the statistics: its share of the listed rows is the estimate of its visible matches.
    const estimate = r && lexemes.length > 0 && !r.negated && (r.freq ?? 0) > 0 && r.listed ? Math.round((r.freq ?? 0) * r.listed) : null;
    const stats = { rare, lexemes, estimate };
    if (statsCache.size >= STATS_CACHE_SIZE) statsCache.delete(statsCache.keys().next().value as string);
    statsCache.set(q, { at: Date.now(), stats });
    return stats;
  }

  /** The planner's estimate of all visible matches (only asked when the sample is full). */
  async function estimate(tsq: Fragment, visible: Fragment): Promise<number> {
    const [plan] = await sql<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }[]>`
      explain (format json) select 1 from tools_search s where s.search_vector @@ ${tsq} and ${visible}`;
    return Math.round(plan?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0);
  }

  /** Snippets of the page's rows only: the seo description and every string inside the content json, or the response text. */
  async function excerptsOf(rows: HitRow[], q: string): Promise<Map<string, string>> {
    if (rows.length === 0) return new Map();
    const byTool = new Map<ToolRoute, string[]>();
    const responseIds: string[] = [];
    for (const r of rows) {
      if (r.type === 'responses') responseIds.push(r.id);
      else byTool.set(r.tool, [...(byTool.get(r.tool) ?? []), r.id]);
    }
    // The content json comes as it is and its strings are gathered here: jsonb_path_query's recursive
    // walk cost as much database time as the whole search sample.
    const parts: Fragment[] = [...byTool.entries()].map(
      ([tool, ids]) => sql`(select c.id, coalesce(c.seo_description, '') as body, c.content from ${sql(toolTableName(tool))} c where c.id in ${sql(ids)})`,
    );
    if (responseIds.length) parts.push(sql`(select r.id, r.content as body, null::jsonb as content from tools_responses r where r.id in ${sql(responseIds)})`);
    const [found, stats] = await Promise.all([sql<{ id: string; body: string; content: unknown }[]>`select e.id, e.body, e.content from (${unionAll(parts)}) e`, queryStats(q)]);
    return new Map(found.map((f) => [f.id, excerptOf(f.content === null ? f.body : [f.body, ...stringsOf(f.content)].join(' '), stats.lexemes)]));
  }

  return {
    provider: 'postgres',

    async page(query: SearchQuery, caller: SearchCaller): Promise<SearchPage> {
      const tsq = sql`websearch_to_tsquery('english', ${query.q})`;
      const visible = visibleSql(caller, query.isPublic);
      const tools = query.tools ?? [...TOOL_ROUTES];
      const wanted = (r: Pick<HitRow, 'tool' | 'type'>) => tools.includes(r.tool) && (query.type === 'all' || query.type === r.type);

      // Facets over every tool and both types: the sample has no tools/type filter.
      const end = query.page * query.limit;
      const ranked = Math.max(CANDIDATES, end);
      const stats = await queryStats(query.q);
      const rare = stats.rare;
      const sample = await newest(tsq, visible, sql``, SAMPLE, ranked, rare);
      const sampled = new Map<string, CountRow>();
      for (const r of sample) {
        const c = sampled.get(key(r.tool, r.type)) ?? { tool: r.tool, type: r.type, n: 0 };
        c.n += 1;
        sampled.set(key(r.tool, r.type), c);
      }
      const full = sample.length >= SAMPLE;
      // A word in the statistics is estimated from them (a listed-only search too); anything else (the
      // caller's own private items, exclusions, a word missing from the statistics) asks the planner.
      const estimated = stats.estimate !== null && query.isPublic !== false ? stats.estimate : full ? await estimate(tsq, visible) : 0;
      const total = full ? Math.max(SAMPLE, estimated) : sample.length;
      const counts = [...sampled.values()].map((c) => ({ ...c, n: Math.min(COUNT_CAP, full ? Math.max(c.n, Math.round((total * c.n) / sample.length)) : c.n) }));

      const filtered = query.tools !== null || query.type !== 'all';
      // The sample holds every match, or is all the ranking would look at anyway: no second query.
      const enough = !full || (!filtered && end <= SAMPLE);
      let pool = enough ? sample.filter(wanted) : await newest(tsq, visible, sql`${query.tools ? sql`and s.tool in ${sql(tools)}` : sql``} ${query.type === 'all' ? sql`` : sql`and s.kind = ${query.type}`}`, query.sort === 'date' ? end : ranked, ranked, rare);
      if (query.sort !== 'date') pool = pool.filter((r) => r.rank !== null);
      return { counts, rows: orderRows(pool, query.sort).slice(end - query.limit, end).map((r) => ({ ...r, rank: r.rank ?? 0 })) };
    },

    excerpts: (rows: HitRow[], q: string) => excerptsOf(rows, q),

    async prefixTitles(tools: readonly ToolRoute[], terms: string[], max: number): Promise<string[]> {
      if (terms.length === 0) return [];
      const prefix = terms.map((w) => `${w}:*`).join(' & ');
      // Listed titles only: suggestions are shown to anyone typing, so they never reveal private items.
      const titles = await sql<{ title: string }[]>`
        select title from (
          select s.title, s.view_count from tools_search s
          where s.search_vector @@ to_tsquery('english', ${prefix}) and s.kind = 'content' and s.title is not null
            and s.tool in ${sql(tools as ToolRoute[])} and ${liveContentSql(sql, s)} and ${listedContentSql(sql, s)}
          limit 100) t
        order by view_count desc, title limit ${max}`;
      return titles.map((t) => t.title);
    },
  };
}
