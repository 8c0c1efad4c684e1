// Generic permission-matrix harness (spec 000 Authentication 4-5), for every feature area of core-api.
//
// Five actors around one storyteller's content: the owner (who owns the content and the family group),
// an active contributor and an active viewer of that group, a member who was removed from it, and a
// stranger. A matrix is a list of routes, each with the status every actor must get; the runner calls
// each route as each actor and returns every mismatch (an empty list means the table holds). A 404 must
// carry no data: its body may only hold error/details/code.
//
// Usage (any feature's test file):
//   const actors = await createFamilyActors(t.app, t.database.sql);
//   const mismatches = await runPermissionMatrix(t.app, actors, [
//     { name: 'read story', method: 'GET', url: () => `/api/stories/${storyId}`, expect: allow(200, 200, 200) },
//     { name: 'delete story', method: 'DELETE', prepare: async () => ({ id: await makeStory(actors.owner.userId) }),
//       url: (c) => `/api/stories/${c.id}`, expect: allow(200, 403, 403) },
//   ]);
//   expect(mismatches).toEqual([]);
import type { Sql } from 'postgres';
import type { App } from '@story/http';
import { signUp, type SignedUp } from './helper';
import { addMember, newFamilyGroup } from './family-factories';

export const ACTOR_NAMES = ['owner', 'contributor', 'viewer', 'removed', 'stranger'] as const;
export type ActorName = (typeof ACTOR_NAMES)[number];

export interface Actor extends SignedUp {
  name: ActorName;
}

export interface FamilyActors {
  owner: Actor;
  contributor: Actor;
  viewer: Actor;
  removed: Actor;
  stranger: Actor;
  /** The owner's family group: contributor and viewer active, removed with status removed. */
  familyGroupId: string;
  /** family_members ids, by actor (the stranger has none). */
  memberIds: Record<Exclude<ActorName, 'stranger'>, string>;
}

/** Sign up five accounts and put them in the owner's family group with their roles. */
export async function createFamilyActors(app: App, sql: Sql, groupName = 'Matrix family'): Promise<FamilyActors> {
  const make = async (name: ActorName): Promise<Actor> => ({ ...(await signUp(app)), name });
  const owner = await make('owner');
  const contributor = await make('contributor');
  const viewer = await make('viewer');
  const removed = await make('removed');
  const stranger = await make('stranger');
  const group = await newFamilyGroup(sql, { ownerId: owner.userId, name: groupName });
  const c = await addMember(sql, { groupId: group.id, userId: contributor.userId, role: 'family_contributor', email: contributor.email });
  const v = await addMember(sql, { groupId: group.id, userId: viewer.userId, role: 'family_viewer', email: viewer.email });
  // The removed member once held the strongest invitee role: removal alone must take everything away.
  const r = await addMember(sql, { groupId: group.id, userId: removed.userId, role: 'family_contributor', status: 'removed', email: removed.email });
  return {
    owner,
    contributor,
    viewer,
    removed,
    stranger,
    familyGroupId: group.id,
    memberIds: { owner: group.ownerMemberId, contributor: c.id, viewer: v.id, removed: r.id },
  };
}

/** One status, or any of several (e.g. [200, 201]). */
export type Expected = number | readonly number[];

/** Expected outcomes for the three roles; a removed member and a stranger always get 404. */
export const allow = (owner: Expected, contributor: Expected, viewer: Expected): Record<ActorName, Expected> => ({
  owner,
  contributor,
  viewer,
  removed: 404,
  stranger: 404,
});

export interface MatrixResponse {
  statusCode: number;
  body: string;
  json(): unknown;
}

export interface MatrixRoute<C = Record<string, string>> {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /**
   * Runs before each actor's call and its result is passed to url/payload/check: use it when the call
   * consumes its resource (DELETE, accept), so every actor gets a fresh one.
   */
  prepare?: (actor: Actor) => Promise<C>;
  url: string | ((ctx: C, actor: Actor) => string);
  payload?: unknown | ((ctx: C, actor: Actor) => unknown);
  expect: Record<ActorName, Expected>;
  /** Extra assertion on an allowed (2xx) answer; throw to report a mismatch. */
  check?: (res: MatrixResponse, actor: Actor, ctx: C) => void | Promise<void>;
  /** Restrict the actors this route is called as (default all five). */
  actors?: readonly ActorName[];
}

export interface Mismatch {
  route: string;
  actor: ActorName;
  expected: Expected;
  got: number;
  body: string;
}

const NO_DATA_KEYS = new Set(['error', 'details', 'code']);

/** A route of any context type, for mixed lists (each route's own functions agree with its prepare). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyMatrixRoute = MatrixRoute<any>;

/** Call every route as every actor; return the mismatches (status, data leaked in a 404, failed check). */
export async function runPermissionMatrix(app: App, actors: FamilyActors, routes: readonly AnyMatrixRoute[]): Promise<Mismatch[]> {
  const mismatches: Mismatch[] = [];
  for (const route of routes) {
    for (const name of route.actors ?? ACTOR_NAMES) {
      const actor = actors[name];
      const expected = route.expect[name];
      const ctx = route.prepare ? await route.prepare(actor) : ({} as Record<string, string>);
      const url = typeof route.url === 'function' ? route.url(ctx, actor) : route.url;
      const payload = typeof route.payload === 'function' ? (route.payload as (c: unknown, a: Actor) => unknown)(ctx, actor) : route.payload;
      const res = await app.inject({ method: route.method, url, headers: actor.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
      const ok = Array.isArray(expected) ? expected.includes(res.statusCode) : res.statusCode === expected;
      const report = (got: number, body: string) => mismatches.push({ route: `${route.method} ${route.name}`, actor: name, expected, got, body: body.slice(0, 300) });
      if (!ok) {
        report(res.statusCode, res.body);
        continue;
      }
      if (res.statusCode === 404) {
        const body = safeJson(res.body);
        const leaked = body && typeof body === 'object' ? Object.keys(body).filter((k) => !NO_DATA_KEYS.has(k)) : [];
        if (leaked.length) report(404, `404 carries data: ${leaked.join(', ')}`);
      } else if (res.statusCode < 300 && route.check) {
        try {
          await route.check(res, actor, ctx);
        } catch (err) {
          report(res.statusCode, `check failed: ${(err as Error).message}`);
        }
      }
    }
  }
  return mismatches;
}

function safeJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
}
