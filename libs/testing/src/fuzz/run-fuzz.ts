// The fuzz loop and its property (CONTRACTS §3): every request derived from the OpenAPI document is
// sent with app.inject, one at a time, and its answer must be: below 500 (502/503 only where the route
// declares them), free of stack traces and SQL text, in the service's error shape when it is an error, and,
// when refused (4xx), followed by no committed write to any table (triggers count them).
import fc from 'fast-check';
import type postgres from 'postgres';
import { fuzzOperations, requestArbitrary, type Actors, type FuzzOperation, type FuzzRequest } from './openapi-requests';

export type ErrorShape = 'core' | 'email' | 'tools';

export interface FuzzOptions {
  app: { inject(options: { method: string; url: string; headers: Record<string, string>; payload?: string }): Promise<{ statusCode: number; body: string; headers: Record<string, unknown> }> };
  sql: postgres.Sql;
  doc: { paths?: Record<string, Record<string, unknown>> };
  shape: ErrorShape;
  /** Who sends the requests; a function is asked again before each operation (to replace a signed-out actor). */
  actors: Actors | (() => Promise<Actors>);
  ids: string[];
  runsPerRoute: number;
  seed: number;
  /** Tables a refused request may legitimately write (a failed sign-in is counted, a limit is spent), each with why. */
  writesAllowedOnRefusal?: Record<string, string>;
  /** Operations not fuzzed, each with why (e.g. a route that sleeps by design). */
  skip?: Record<string, string>;
  /** Operations whose error bodies the spec writes differently (`METHOD /path`), each with where it says so. */
  errorShapeExempt?: Record<string, string>;
}

export interface FuzzFailure {
  operation: string;
  request: FuzzRequest;
  status: number;
  problem: string;
  body: string;
}

export interface FuzzResult {
  tried: number;
  operations: number;
  /** How many answers of each status code. */
  statuses: Record<string, number>;
  failures: FuzzFailure[];
}

// A stack frame, raw or JSON-escaped ("\\n    at fn (file:1:2)"), or a source path.
const STACK = /(\n|\\n)\s*at .+[:(]\d+:\d+|node_modules\/|\.ts:\d+:\d+/;
const SQL_TEXT = /syntax error at or near|violates (foreign key|unique|check|not-null) constraint|relation "[^"]+" does not exist|column "[^"]+" does not exist|duplicate key value|invalid input syntax for type|\bselect\s.+\sfrom\s|\binsert into\b|\bupdate\s\w+\sset\b|PostgresError/i;

/** Why `body` is not an error of the service's shape (CONTRACTS §3), or null when it is. */
export function shapeProblem(shape: ErrorShape, body: unknown): string | null {
  const b = body as Record<string, unknown> | null;
  if (!b || typeof b !== 'object') return 'error body is not a JSON object';
  if (shape === 'core') return typeof b['error'] === 'string' ? null : 'core error body lacks error: string';
  if (shape === 'email') return typeof b['error'] === 'string' && typeof b['code'] === 'string' ? null : 'email error body lacks error and code strings';
  const e = b['error'] as Record<string, unknown> | undefined;
  return b['success'] === false && e && typeof e['code'] === 'string' && typeof e['message'] === 'string' ? null : 'tools error body lacks success: false and error {code, message}';
}

/** Count every committed row write from here on (a trigger per table, into fuzz_writes). */
export async function trackWrites(sql: postgres.Sql): Promise<() => Promise<string[]>> {
  await sql`create table if not exists fuzz_writes (id bigserial primary key, tbl text not null)`;
  await sql`create or replace function fuzz_note_write() returns trigger language plpgsql as $$
    begin insert into fuzz_writes (tbl) values (TG_TABLE_NAME); return null; end $$`;
  const tables = await sql<{ t: string }[]>`select table_name as t from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> 'fuzz_writes'`;
  for (const { t } of tables) {
    await sql`drop trigger if exists fuzz_note_write on ${sql(t)}`;
    await sql`create trigger fuzz_note_write after insert or update or delete on ${sql(t)} for each row execute function fuzz_note_write()`;
  }
  let last = Number((await sql<{ n: string }[]>`select coalesce(max(id), 0) as n from fuzz_writes`)[0]?.n ?? 0);
  return async () => {
    const rows = await sql<{ id: string; tbl: string }[]>`select id, tbl from fuzz_writes where id > ${last} order by id`;
    if (rows.length) last = Number(rows[rows.length - 1]!.id);
    return [...new Set(rows.map((r) => r.tbl))];
  };
}

async function check(options: FuzzOptions, op: FuzzOperation, request: FuzzRequest, writes: () => Promise<string[]>, seen: Record<string, number>): Promise<FuzzFailure | null> {
  const res = await options.app.inject({ method: request.method, url: request.url, headers: request.headers, ...(request.payload !== undefined ? { payload: request.payload } : {}) });
  seen[String(res.statusCode)] = (seen[String(res.statusCode)] ?? 0) + 1;
  const fail = (problem: string): FuzzFailure => ({ operation: `${op.method} ${op.path}`, request, status: res.statusCode, problem, body: res.body.slice(0, 500) });
  const written = await writes();
  const status = res.statusCode;
  if (status >= 500 && !((status === 502 || status === 503) && op.statuses.includes(String(status)))) return fail(`answered ${status}`);
  if (STACK.test(res.body)) return fail('the answer carries a stack trace');
  if (status >= 400 && SQL_TEXT.test(res.body)) return fail('the answer carries SQL text');
  // A page (declared text/html, or any route outside /api, where the tools' share pages live) answers its
  // errors as pages; so does a URL whose dot segments resolve it to a page.
  const isPage = op.html || !op.path.startsWith('/api/') || /(^|\/)\.{1,2}(\/|\?|$)/.test(request.url);
  const exempt = `${op.method} ${op.path}` in (options.errorShapeExempt ?? {});
  if (status >= 400 && !exempt && !(isPage && String(res.headers['content-type'] ?? '').includes('text/html'))) {
    const type = String(res.headers['content-type'] ?? '');
    if (!type.includes('json')) return fail(`error answered as ${type || 'no content type'}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(res.body);
    } catch {
      return fail('error body is not JSON');
    }
    const shape = shapeProblem(options.shape, parsed);
    if (shape) return fail(shape);
  }
  if (status >= 400 && status < 500) {
    const unexpected = written.filter((t) => !(t in (options.writesAllowedOnRefusal ?? {})));
    if (unexpected.length) return fail(`refused with ${status} but wrote to ${unexpected.join(', ')}`);
  }
  return null;
}

/** Fuzz every operation of the document for `runsPerRoute` requests each; never stops at the first failure. */
export async function fuzzService(options: FuzzOptions): Promise<FuzzResult> {
  const writes = await trackWrites(options.sql);
  const operations = fuzzOperations(options.doc).filter((op) => !(`${op.method} ${op.path}` in (options.skip ?? {})));
  const result: FuzzResult = { tried: 0, operations: operations.length, statuses: {}, failures: [] };
  for (const [i, op] of operations.entries()) {
    const actors = typeof options.actors === 'function' ? await options.actors() : options.actors;
    await writes(); // what setting the actors up wrote is not the next request's
    const requests = fc.sample(requestArbitrary(op, actors, options.ids), { numRuns: options.runsPerRoute, seed: options.seed + i });
    for (const request of requests) {
      result.tried++;
      const failure = await check(options, op, request, writes, result.statuses);
      if (failure) result.failures.push(failure);
    }
  }
  return result;
}

/** One paragraph for the log: counts, and the first failures grouped by operation and problem. */
export function describeFuzz(service: string, seed: number, r: FuzzResult): string {
  const groups = new Map<string, FuzzFailure[]>();
  for (const f of r.failures) {
    const key = `${f.operation}: ${f.problem}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const codes = Object.entries(r.statuses).map(([code, n]) => `${code}: ${n}`).join(', ');
  const lines = [`fuzz ${service}: ${r.tried} requests over ${r.operations} operations (seed ${seed}), ${r.failures.length} failures; answers ${codes}`];
  for (const [key, list] of [...groups].slice(0, 40)) {
    const f = list[0]!;
    lines.push(`  ${list.length}x ${key}\n     e.g. ${f.request.method} ${f.request.url.slice(0, 160)} (${f.request.note.slice(0, 80)}) -> ${f.status} ${f.body.slice(0, 200)}`);
  }
  return lines.join('\n');
}
