// The cross-service access matrix (spec 000 Authentication 4-6, spec 001 Authentication, spec 002
// Authentication): every route of an OpenAPI document that takes an id, called as each of ten actors, must
// answer exactly what the spec allows; an actor who may not know the resource (404) must get the very answer
// a random id that does not exist gets, so an answer never tells a stranger that an id exists. Each service's
// test (apps/<app>/src/access/access-matrix.test.ts) lists its cases; this module derives the id routes from
// the document (so a new route without a case fails the test), runs the cases and counts what it checked.
import { randomInt, randomUUID } from 'node:crypto';
import { shapeProblem, type ErrorShape } from '../fuzz/run-fuzz';

/**
 * The actors. The family roles are around one storyteller (the owner): an active family_contributor and
 * family_viewer of the owner's group, and a member removed from it. A stranger is another signed-in
 * account; anonymous sends no credentials; toolsSession is a free-tools visitor (a valid X-Session-ID of
 * its own, no token); support and admin hold those roles; impersonator is an admin impersonating the owner
 * (CONTRACTS §7: a token of the owner's session with act: {sub: <admin id>}).
 */
export const ACCESS_ACTORS = ['owner', 'contributor', 'viewer', 'removed', 'stranger', 'anonymous', 'toolsSession', 'support', 'admin', 'impersonator'] as const;
export type AccessActor = (typeof ACCESS_ACTORS)[number];

/** One status, or any of several. */
export type Expected = number | readonly number[];
export type ActorExpectations = Record<AccessActor, Expected>;

export interface AccessResponse {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
}

export interface AccessInject {
  inject(options: { method: string; url: string; headers: Record<string, string>; payload?: string | object | Buffer }): Promise<AccessResponse>;
}

type Params = Record<string, string>;

export interface AccessCase<C = Params> {
  /** `METHOD /path` exactly as the OpenAPI document writes it. */
  route: string;
  /** Where the spec (or CONTRACTS) says who may do this: the expectations come from there. */
  spec: string;
  /** Tells several cases of one route apart. */
  note?: string;
  /** Runs before each actor's call (a fresh target for calls that consume it); the result is `ctx`. */
  prepare?: (actor: AccessActor) => Promise<C>;
  /** Path parameter values by the document's names. */
  params: (ctx: C, actor: AccessActor) => Params;
  query?: string | ((ctx: C, actor: AccessActor) => string);
  payload?: unknown;
  /** Extra headers for every actor (content type, X-Session-ID of a tools route...). */
  headers?: (ctx: C, actor: AccessActor) => Record<string, string>;
  expect: ActorExpectations;
  /**
   * The same request naming a resource that does not exist; default: every uuid parameter replaced by a
   * random uuid, every other parameter by a random string of its shape (a prefix up to `_` kept).
   */
  missing?: (ctx: C, actor: AccessActor) => Params;
  /** Actors whose refusal is not compared with the missing id's (each with why): one that may see the item anyway. */
  noCompare?: Partial<Record<AccessActor, string>>;
  /** Call order (default ACCESS_ACTORS order, owner first): put the owner last when its call consumes the target. */
  order?: readonly AccessActor[];
  /** Extra assertion on an allowed (2xx) answer; throw to report a mismatch. */
  check?: (res: AccessResponse, actor: AccessActor, ctx: C) => void | Promise<void>;
}

// Each case's own functions agree with its prepare; lists mix cases of different context types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyAccessCase = AccessCase<any>;

export interface AccessMismatch {
  route: string;
  actor: AccessActor;
  problem: string;
}

export interface AccessResult {
  /** Distinct routes (METHOD /path) with at least one case. */
  routes: number;
  cases: number;
  /** Actor × case calls made and checked. */
  cells: number;
  /** Answers to an existing id compared with the answer to a missing one. */
  comparisons: number;
  /** Answers per status, over every cell. */
  statuses: Record<string, number>;
  mismatches: AccessMismatch[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';

/** A random value of the same shape: a uuid for a uuid, else letters for letters and digits for digits, the part before the first `_` kept. */
export function lookalike(value: string): string {
  if (UUID.test(value)) return randomUUID();
  const cut = value.indexOf('_') + 1;
  const pick = (set: string) => set[randomInt(set.length)]!;
  const tail = [...value.slice(cut)]
    .map((ch) => (/[a-z]/.test(ch) ? pick(LOWER) : /[A-Z]/.test(ch) ? pick(LOWER).toUpperCase() : /[0-9]/.test(ch) ? pick(DIGITS) : ch))
    .join('');
  return value.slice(0, cut) + tail;
}

/** The URL of `route` (`METHOD /path/{param}`) with `params` filled in and `query` appended. */
export function routeUrl(route: string, params: Params, query = ''): { method: string; url: string } {
  const [method, path] = route.split(' ') as [string, string];
  const url = path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route}: no value for {${name}}`);
    // A key with slashes (a storage key) stays a path; everything else is one encoded segment.
    return encodeURIComponent(value).replace(/%2F/g, '/');
  });
  return { method, url: query ? `${url}?${query}` : url };
}

// Fields that differ on every answer (tools-api's envelope) and say nothing about the resource.
const VOLATILE = new Set(['timestamp', 'requestId', 'processingTime', 'rateLimit', 'resetTime']);

function stripVolatile(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripVolatile);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).filter(([k]) => !VOLATILE.has(k)).map(([k, v]) => [k, stripVolatile(v)]));
  return value;
}

/** A body with the ids it was asked about replaced by their parameter names, volatile fields dropped. */
function normalise(body: string, params: Params, keep: readonly string[] = []): string {
  let text = body;
  for (const [name, value] of Object.entries(params)) if (value.length >= 4 && !keep.includes(name)) text = text.split(value).join(`{${name}}`);
  try {
    return JSON.stringify(stripVolatile(JSON.parse(text)));
  } catch {
    return text;
  }
}

const matches = (expected: Expected, status: number) => (typeof expected === 'number' ? expected === status : expected.includes(status));

export interface RunAccessOptions {
  app: AccessInject;
  /** Headers of each actor; a function is asked before each case (to replace a session a case ended). */
  actors: Record<AccessActor, Record<string, string>> | (() => Promise<Record<AccessActor, Record<string, string>>>);
  cases: readonly AnyAccessCase[];
  /** The service's error shape: every 4xx answer must have it. */
  shape: ErrorShape;
  /** Status that means "no such thing for you" (default 404). */
  notFound?: number;
  /**
   * Refusals that must also be the same for an existing and a missing id (default: the notFound status
   * only). A service whose 401 and 403 come before any lookup adds them; core-api cannot, since a family
   * member's 403 on a story they may see is rightly not the 404 of a missing one.
   */
  compare?: readonly number[];
  /** Parameters kept as they are in the missing-id request (vocabularies such as a tool name). */
  keep?: readonly string[];
}

/** Call every case as every actor; report each wrong status, error shape, failed check, and 404 that differs from a missing id's. */
export async function runAccessMatrix(options: RunAccessOptions): Promise<AccessResult> {
  const notFound = options.notFound ?? 404;
  const compared = new Set(options.compare ?? [notFound]);
  const result: AccessResult = { routes: new Set(options.cases.map((c) => c.route)).size, cases: options.cases.length, cells: 0, comparisons: 0, statuses: {}, mismatches: [] };
  for (const c of options.cases) {
    const actors = typeof options.actors === 'function' ? await options.actors() : options.actors;
    const label = c.note ? `${c.route} (${c.note})` : c.route;
    for (const actor of c.order ?? ACCESS_ACTORS) {
      const report = (problem: string) => result.mismatches.push({ route: label, actor, problem });
      let ctx: unknown;
      let res: AccessResponse;
      let params: Params;
      const send = async (p: Params) => {
        const { method, url } = routeUrl(c.route, p, typeof c.query === 'function' ? c.query(ctx, actor) : (c.query ?? ''));
        const headers = { ...actors[actor], ...(c.headers ? c.headers(ctx, actor) : {}) };
        return options.app.inject({ method, url, headers, ...(c.payload === undefined ? {} : { payload: (typeof c.payload === 'function' ? c.payload(ctx, actor) : c.payload) as object }) });
      };
      try {
        ctx = c.prepare ? await c.prepare(actor) : {};
        params = c.params(ctx, actor);
        res = await send(params);
      } catch (err) {
        report(`could not be called: ${(err as Error).message}`);
        continue;
      }
      result.cells++;
      result.statuses[String(res.statusCode)] = (result.statuses[String(res.statusCode)] ?? 0) + 1;
      const expected = c.expect[actor];
      if (!matches(expected, res.statusCode)) {
        report(`expected ${JSON.stringify(expected)}, got ${res.statusCode}: ${res.body.slice(0, 200)}`);
        continue;
      }
      if (res.statusCode >= 400 && res.statusCode < 500) {
        let parsed: unknown = null;
        try {
          parsed = JSON.parse(res.body);
        } catch {
          /* reported below */
        }
        const problem = shapeProblem(options.shape, parsed);
        if (problem) report(`${res.statusCode}: ${problem}: ${res.body.slice(0, 200)}`);
      }
      if (compared.has(res.statusCode) && !c.noCompare?.[actor]) {
        // Every id replaced, and with two or more ids each one alone (a real group with a made-up member
        // must not answer differently from a made-up group either).
        const free = Object.keys(params).filter((k) => !options.keep?.includes(k));
        const variants: Params[] = c.missing
          ? [c.missing(ctx, actor)]
          : [free, ...(free.length > 1 ? free.map((k) => [k]) : [])].map((replace) => Object.fromEntries(Object.entries(params).map(([k, v]) => [k, replace.includes(k) ? lookalike(v) : v])));
        const a = normalise(res.body, params, options.keep);
        for (const missing of variants) {
          const other = await send(missing);
          result.comparisons++;
          const b = normalise(other.body, missing, options.keep);
          if (other.statusCode !== res.statusCode || a !== b) {
            report(`an existing id answered ${res.statusCode} ${a.slice(0, 200)} but a missing one (${Object.keys(missing).filter((k) => missing[k] !== params[k]).join(', ')}) ${other.statusCode} ${b.slice(0, 200)}`);
            break;
          }
        }
      } else if (res.statusCode < 300 && c.check) {
        try {
          await c.check(res, actor, ctx as never);
        } catch (err) {
          report(`check failed: ${(err as Error).message}`);
        }
      }
    }
  }
  return result;
}

/** Expectations for all ten actors from a few: everything not given falls back to `rest`. */
export function expectFor(given: Partial<ActorExpectations>, rest: Expected): ActorExpectations {
  return Object.fromEntries(ACCESS_ACTORS.map((a) => [a, given[a] ?? rest])) as ActorExpectations;
}

/** One line per figure, for the test log and docs/reliability.md. */
export function describeAccess(service: string, r: AccessResult, idRoutes: number): string {
  const codes = Object.entries(r.statuses)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([code, n]) => `${code}: ${n}`)
    .join(', ');
  const lines = [
    `access matrix ${service}: ${idRoutes} id routes, ${r.routes} covered by ${r.cases} cases x ${ACCESS_ACTORS.length} actors = ${r.cells} cells checked, ${r.comparisons} existing-vs-missing comparisons, ${r.mismatches.length} mismatches; answers ${codes}`,
  ];
  for (const m of r.mismatches.slice(0, 60)) lines.push(`  ${m.route} as ${m.actor}: ${m.problem}`);
  return lines.join('\n');
}
