// The SQL of search: facet counts and one page of hits over the sixteen content tables and
// tools_responses, excerpts for the page, and prefix-matched public titles for suggestions. Raw postgres.js:
// tables are chosen at run time and every query is shaped for its index (see the comments). Who sees what
// is shared/visibility.ts; its predicates are combined here as index-friendly parts.
import type postgres from 'postgres';
import { TOOL_ROUTES, type ToolRoute } from '@story/db';
import type { ToolsCaller } from '../../shared/caller';
import { toolTableName } from '../../shared/tool-param';
import { listedContentSql, listedResponseSql, liveContentSql, ownRowsSql } from '../../shared/visibility';
import type { SearchQuery } from './search.service';

/**
 * Facet counts stop at this many matches per table: counting every match of a common word over a
 * million rows costs far more than the page itself, and "1000+" is as useful to a visitor as the exact number.
 */
export const COUNT_CAP = 200;
/** Rows each table's visibility part hands to ranking (see the page query). */
export const CANDIDATES = 100;

export interface HitRow {
  tool: ToolRoute;
  type: 'content' | 'responses';
  id: string;
  title: string | null;
  share_code: string | null;
  prompt_id: string | null;
  created_at: string;
  rank: number;
  keywords: string[] | null;
}

export interface CountRow {
  tool: ToolRoute;
  type: 'content' | 'responses';
  n: number;
}

export function createSearchRepository(sql: postgres.Sql) {
  type Fragment = postgres.PendingQuery<postgres.Row[]>;
  const unionAll = (parts: Fragment[]): Fragment => parts.reduce((acc, part) => sql`${acc} union all ${part}`);

  /** ts_headline over the page's rows only: the seo description and every string inside the content json, or the response text. */
  async function excerptsOf(rows: HitRow[], tsq: Fragment): Promise<Map<string, string>> {
    if (rows.length === 0) return new Map();
    const byTool = new Map<ToolRoute, string[]>();
    const responseIds: string[] = [];
    for (const r of rows) {
      if (r.type === 'responses') responseIds.push(r.id);
      else byTool.set(r.tool, [...(byTool.get(r.tool) ?? []), r.id]);
    }
    const options = 'MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … ", StartSel="", StopSel=""';
    const parts: Fragment[] = [...byTool.entries()].map(
      ([tool, ids]) => sql`(select c.id, coalesce(c.seo_description, '') || ' ' ||
                                  coalesce((select string_agg(v #>> '{}', ' ') from jsonb_path_query(c.content, 'strict $.** ? (@.type() == "string")') v), '') as body
                           from ${sql(toolTableName(tool))} c where c.id in ${sql(ids)})`,
    );
    if (responseIds.length) parts.push(sql`(select r.id, r.content as body from tools_responses r where r.id in ${sql(responseIds)})`);
    const found = await sql<{ id: string; excerpt: string }[]>`select e.id, ts_headline('english', e.body, ${tsq}, ${options}) as excerpt from (${unionAll(parts)}) e`;
    return new Map(found.map((f) => [f.id, f.excerpt]));
  }


  return {
    /** Capped facet counts of every tool and both types, and the page of hits the query asks for. */
    async page(query: SearchQuery, caller: Pick<ToolsCaller, 'sessionId' | 'userId'>): Promise<{ counts: CountRow[]; rows: HitRow[]; tools: ToolRoute[] }> {
      const tsq = sql`websearch_to_tsquery('english', ${query.q})`;
      type Frag = postgres.PendingQuery<postgres.Row[]>;
      const hasOwn = caller.sessionId !== '' || caller.userId !== null;
      // Who sees what is shared/visibility.ts; its predicates are combined here as index-friendly parts.
      const ownOf = (t: Frag) => ownRowsSql(sql, t, caller) ?? sql`false`;
      const aliveContent = (t: Frag) => liveContentSql(sql, t);
      const listedContent = (t: Frag) => listedContentSql(sql, t);
      /** Visibility as disjoint parts (listed; the caller's own unlisted ones), so each part can use its own index. */
      const contentParts = (t: Frag): Frag[] => [
        ...(query.isPublic !== false ? [listedContent(t)] : []),
        ...(query.isPublic === true || !hasOwn ? [] : query.isPublic === false ? [sql`${ownOf(t)} and not ${t}.is_public`] : [sql`${ownOf(t)} and not (${listedContent(t)})`]),
      ];
      // Public responses split by moderation status: (moderation_status, created_at) is the index that
      // can hand each part over newest first.
      const responseParts = (r: Frag): Frag[] => [
        ...(query.isPublic !== false ? [sql`${r}.moderation_status = 'pending' and ${r}.is_public`, sql`${r}.moderation_status = 'approved' and ${r}.is_public`] : []),
        ...(query.isPublic === true || !hasOwn
          ? []
          : query.isPublic === false
            ? [sql`${ownOf(r)} and not ${r}.is_public`]
            : [sql`${ownOf(r)} and not ${listedResponseSql(sql, r)}`]),
      ];
      const toolFilter = (tools: readonly ToolRoute[]) => (tools.length < TOOL_ROUTES.length ? sql`and r.tool in ${sql(tools as ToolRoute[])}` : sql``);
      const orJoin = (parts: Frag[]) => {
        const [first, ...rest] = parts;
        return first === undefined ? sql`false` : sql`(${rest.reduce((acc, p) => sql`${acc} or (${p})`, sql`(${first})`)})`;
      };

      const tools = query.tools ?? [...TOOL_ROUTES];
      const wantContent = query.type !== 'responses';
      const wantResponses = query.type !== 'content';

      // Facets: every tool and both types, whatever the filters, so a visitor sees where else the words
      // occur. Counting stops at COUNT_CAP per table: the planner then stops scanning at that many matches.
      const countBranches = [
        ...TOOL_ROUTES.map(
          (tool) => sql`select ${tool}::text as tool, 'content'::text as type,
                          (select count(*) from (select 1 from ${sql(toolTableName(tool))} t
                                                 where t.search_vector @@ ${tsq} and ${aliveContent(sql`t`)} and ${orJoin(contentParts(sql`t`))}
                                                 limit ${COUNT_CAP}) c)::int as n`,
        ),
        sql`select r.tool, 'responses'::text as type, count(*)::int as n
            from (select r.tool from tools_responses r where r.search_vector @@ ${tsq} and r.deleted_at is null and ${orJoin(responseParts(sql`r`))} limit ${COUNT_CAP}) r
            group by r.tool`,
      ];
      const countsQuery = sql<{ tool: ToolRoute; type: 'content' | 'responses'; n: number }[]>`${unionAll(countBranches)}`;

      const counts = await countsQuery;
      const contentCount = new Map(counts.filter((c) => c.type === 'content').map((c) => [c.tool, c.n]));
      const responseCount = counts.filter((c) => c.type === 'responses' && tools.includes(c.tool)).reduce((n, c) => n + c.n, 0);

      // The page: one UNION ALL with one branch per table that has matches (the counts above), each
      // returning only its own best (page x limit) rows, merged and cut by the outer query. How a branch
      // finds its rows depends on how many match, known from the counts, so the planner's guess cannot
      // pick the wrong path:
      //  - fewer than COUNT_CAP matches: all of them from the GIN index (OFFSET 0 keeps it from walking the
      //    created_at index hoping to meet a rare word early), ranked exactly;
      //  - COUNT_CAP or more: each visibility part walks its created_at index newest first and stops after
      //    `candidates` matches, so a common word costs a few hundred rows per table, not every match.
      //    Relevance and popularity are then judged among each table's newest matches (CANDIDATES);
      //    date order stays exact.
      // Excerpts (ts_headline, the costly part) are made afterwards for the final page only (excerptsOf).
      const perBranch = query.page * query.limit;
      const candidates = query.sort === 'date' ? perBranch : Math.max(CANDIDATES, perBranch);
      // Output-column names (rank, popularity), so the same ORDER BY serves the branches and the merge.
      const order =
        query.sort === 'relevance' ? sql`rank desc, created_at desc, id` : query.sort === 'popular' ? sql`popularity desc, rank desc, id` : sql`created_at desc, id`;
      const pick = (many: boolean) => (many ? sql`order by created_at desc limit ${candidates}` : sql`offset 0`);
      const contentBranch = (tool: ToolRoute) => {
        const many = (contentCount.get(tool) ?? 0) >= COUNT_CAP;
        const parts = contentParts(sql`t`).map(
          (part) => sql`(select t.id, t.title, t.share_code, t.created_at, t.view_count, t.search_vector, t.keywords
                         from ${sql(toolTableName(tool))} t
                         where t.search_vector @@ ${tsq} and ${aliveContent(sql`t`)} and ${part}
                         ${pick(many)})`,
        );
        return sql`(select ${tool}::text as tool, 'content'::text as type, c.id, c.title, c.share_code, null::uuid as prompt_id, c.created_at,
                           c.view_count as popularity, ts_rank_cd(c.search_vector, ${tsq}, 32) as rank, c.keywords
                    from (${unionAll(parts)}) c
                    order by ${order} limit ${perBranch})`;
      };
      const responseBranch = () => {
        const many = responseCount >= COUNT_CAP;
        const parts = responseParts(sql`r`).map(
          (part) => sql`(select r.id, r.tool, r.title, r.prompt_id, r.created_at, r.view_count, r.search_vector
                         from tools_responses r
                         where r.search_vector @@ ${tsq} and r.deleted_at is null and ${part} ${toolFilter(tools)}
                         ${pick(many)})`,
        );
        return sql`(select c.tool, 'responses'::text as type, c.id, c.title, null::text as share_code, c.prompt_id, c.created_at,
                           c.view_count as popularity, ts_rank_cd(c.search_vector, ${tsq}, 32) as rank, null::text[] as keywords
                    from (${unionAll(parts)}) c
                    order by ${order} limit ${perBranch})`;
      };
      const branches = [
        ...(wantContent && contentParts(sql`t`).length > 0 ? tools.filter((tool) => (contentCount.get(tool) ?? 0) > 0).map(contentBranch) : []),
        ...(wantResponses && responseParts(sql`r`).length > 0 && responseCount > 0 ? [responseBranch()] : []),
      ];
      const rows =
        branches.length === 0
          ? []
          : await sql<HitRow[]>`
              select u.tool, u.type, u.id, u.title, u.share_code, u.prompt_id, u.created_at, u.rank, u.popularity, u.keywords
              from (${unionAll(branches)}) u
              order by ${order}
              limit ${query.limit} offset ${(query.page - 1) * query.limit}`;
      return { counts, rows, tools };
    },

    /** ts_headline excerpts of the page's rows, by id. */
    excerpts: (rows: HitRow[], q: string) => excerptsOf(rows, sql`websearch_to_tsquery('english', ${q})`),

    /** Titles of public items whose words start with the prefix terms, most viewed first. */
    async prefixTitles(tools: readonly ToolRoute[], prefix: string, max: number): Promise<string[]> {
      // Public titles only: suggestions are shown to anyone typing, so they never reveal private items.
      const branches = tools.map(
        (tool) => sql`(select t.title, t.view_count from ${sql(toolTableName(tool))} t
                       where t.search_vector @@ to_tsquery('english', ${prefix}) and t.title is not null
                         and ${liveContentSql(sql, sql`t`)} and ${listedContentSql(sql, sql`t`)}
                       limit 5)`,
      );
      const titles = await sql<{ title: string }[]>`
        select title from (${unionAll(branches)}) s
        order by view_count desc, title limit ${max}`;
      return titles.map((t) => t.title);
    },
  };
}
