// Who may see and who owns generated content and responses: the one rule of tools-api (spec 002
// Authentication 3-4), used by browse, share, responses, export, analytics and search, with the SQL
// predicates list queries use so a list and a single read cannot drift apart. Rows are content rows
// (tools_<tool>) or responses.
//
// Content: soft-deleted and expired rows (expires_at passed) exist for nobody. The owner (same session or
// same account) and staff (admin, support) see the rest; anyone else sees it while it is public and its
// link is alive (an expiring link stops at share_expires_at).
// Private (share_type 'private', spec 002 share types) means private on every path: only the owner and
// staff see it, whether it is asked for by id, by share code, through the share API, a public or embed
// page, an export or a list. Nothing about a private item differs for a stranger from an item that does
// not exist (404 CONTENT_NOT_FOUND).
// Unlisted (share_type 'public' or a live 'expiring' link, is_public false: what generation makes unless
// asked for a public item) is the one exception, by how the item is reached, pinned by tests:
//   'link'      GET /api/{tool}/{shareCode}, the public pages and GET /api/{tool}/share/{shareCode}: the
//               code itself opens an unlisted item ("unlisted, not secret from holders").
//   'sharePage' GET /api/{tool}/share/{shareCode}: as 'link', and the link's own rules bind everyone,
//               owner included: an expired link is gone.
// Lists (browse, search, collections) show listed items (public, live link) plus the caller's own; staff
// get no one else's private items in a list.
//
// Responses: visible while public and not rejected by moderation, or to their owner; staff get no extra.
import type postgres from 'postgres';
import { toDate } from './dates';
import type { ToolsCaller } from './caller';

type Sql = postgres.Sql | postgres.TransactionSql;
type Fragment = postgres.PendingQuery<postgres.Row[]>;

/** How a content row was reached (see the header comment). */
export type AccessPath = 'direct' | 'link' | 'sharePage';

export type Viewer = Pick<ToolsCaller, 'sessionId' | 'userId'> & { role?: ToolsCaller['role'] };

export interface OwnedRow {
  session_id: string;
  user_id: string | null;
}

export interface VisibleContent extends OwnedRow {
  is_public: boolean;
  share_type: string;
  share_expires_at: Date | string | null;
  /** Present on rows read without the live filter; rows from the repositories are live already. */
  expires_at?: Date | string | null;
  deleted_at?: Date | string | null;
}

export interface VisibleResponse extends OwnedRow {
  is_public: boolean;
  moderation_status: string;
}

/** Same session (a non-empty one) or same account. */
export const ownsContent = (row: OwnedRow, caller: Viewer | null): boolean =>
  !!caller && ((caller.sessionId !== '' && row.session_id === caller.sessionId) || (caller.userId !== null && row.user_id === caller.userId));

export const isStaff = (caller: Viewer | null): boolean => !!caller && (caller.role === 'admin' || caller.role === 'support');

/** Owner or staff: the item's managers for reading (private links open for them); changes need changesContent. */
export const managesContent = (row: OwnedRow, caller: Viewer | null): boolean => ownsContent(row, caller) || isStaff(caller);

/**
 * Owner or admin: may change an item (rename, share settings, delete). Support sees what admins see but
 * never changes anything (CONTRACTS §7: "Support may read the admin API, never change it").
 */
export const changesContent = (row: OwnedRow, caller: Viewer | null): boolean => ownsContent(row, caller) || (!!caller && caller.role === 'admin');

/** Not soft-deleted and not expired. */
export const contentAlive = (row: Pick<VisibleContent, 'expires_at' | 'deleted_at'>, now = new Date()): boolean =>
  (row.deleted_at === undefined || row.deleted_at === null) && (row.expires_at === undefined || row.expires_at === null || toDate(row.expires_at) > now);

/** An expiring link stops working at its expiry; public and private links do not expire. */
export const shareLinkAlive = (row: Pick<VisibleContent, 'share_type' | 'share_expires_at'>, now = new Date()): boolean =>
  row.share_type !== 'expiring' || (row.share_expires_at !== null && toDate(row.share_expires_at) > now);

/** Whether the caller may see this content row when reaching it by `via`. */
export function canSee(row: VisibleContent, caller: Viewer | null, via: AccessPath = 'direct', now = new Date()): boolean {
  if (!contentAlive(row, now)) return false;
  const manager = managesContent(row, caller);
  // Private whatever the path: a share code is no key to it.
  if (row.share_type === 'private') return manager;
  if (via === 'sharePage') return shareLinkAlive(row, now);
  if (manager) return true;
  if (!shareLinkAlive(row, now)) return false;
  return row.is_public || via === 'link';
}

/** Whether the caller may read this response. */
export const canSeeResponse = (row: VisibleResponse, caller: Viewer | null): boolean =>
  ownsContent(row, caller) || (row.is_public && row.moderation_status !== 'rejected');

// --- The same rules as SQL predicates for list queries. `t` is the table or its alias as a fragment (sql`t`).

/** Content that exists for anyone: not soft-deleted, not expired. */
export const liveContentSql = (sql: Sql, t: Fragment) => sql`${t}.deleted_at is null and (${t}.expires_at is null or ${t}.expires_at > now())`;

/**
 * Content anyone may find in a list: public, and not behind an expired link. (is_public is false on every
 * private row: the share, deck and admin writers set both columns together.)
 */
export const listedContentSql = (sql: Sql, t: Fragment) => sql`(${t}.is_public and (${t}.share_type <> 'expiring' or ${t}.share_expires_at > now()))`;

/** The caller's own rows (by session or account), or null when the caller has neither. */
export function ownRowsSql(sql: Sql, t: Fragment, caller: Pick<Viewer, 'sessionId' | 'userId'> | null): Fragment | null {
  const own = [caller?.sessionId ? sql`${t}.session_id = ${caller.sessionId}` : null, caller?.userId ? sql`${t}.user_id = ${caller.userId}` : null].filter(
    (x): x is Fragment => x !== null,
  );
  return own.length === 2 ? sql`(${own[0]!} or ${own[1]!})` : (own[0] ?? null);
}

/** A list's visible content: live, and listed or the caller's own. */
export function visibleContentSql(sql: Sql, t: Fragment, caller: Pick<Viewer, 'sessionId' | 'userId'> | null): Fragment {
  const own = ownRowsSql(sql, t, caller);
  return sql`${liveContentSql(sql, t)} and ${own ? sql`(${listedContentSql(sql, t)} or ${own})` : listedContentSql(sql, t)}`;
}

/** Responses anyone may read: public and not rejected by moderation. */
export const listedResponseSql = (sql: Sql, r: Fragment) => sql`(${r}.is_public and ${r}.moderation_status <> 'rejected')`;

/**
 * A response list's filter: true lists public ones only, false the caller's own private ones, undefined
 * public plus own.
 */
export function visibleResponsesSql(sql: Sql, r: Fragment, caller: Pick<Viewer, 'sessionId' | 'userId'>, isPublic?: boolean): Fragment {
  const own = ownRowsSql(sql, r, caller) ?? sql`false`;
  const listed = listedResponseSql(sql, r);
  return isPublic === true ? listed : isPublic === false ? sql`(${own} and not ${r}.is_public)` : sql`(${listed} or ${own})`;
}
