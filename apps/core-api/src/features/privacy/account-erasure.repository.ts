// The rows of an account erasure, in the caller's transaction (postgres.js). What happens to each table that
// references accounts (directly or below a row that does) is decided here or by its foreign key:
//
// - cascade (the foreign key does it when the account row goes): profiles, the settings tables,
//   user_data_exports, user_devices, consent_records, sessions and refresh tokens, identities, magic-link,
//   verification and exchange tokens, campaigns (and every story, create-flow of them), stories, books
//   (chapters, export_jobs), conversations (messages), recordings (audio_shares), images, imports,
//   story_conversions, story_shares, invoices, achievement_progress, family_groups it created (members,
//   invitations, memories, relationships, timeline events), its own memberships elsewhere, timeline events
//   and reactions it made, feature_flag_overrides for it, tools_saved_prompts,
//   export_jobs it asked for or that hold its memories.
// - explicit delete (the foreign key would only set null, but the rows are the person's): gifts it bought,
//   support flags it filed, family memories it wrote in other families, invitations and placeholder
//   members carrying its email, waitlist and sign-in lockout rows of its email, every tools_* row of its own
//   (content, responses, sessions, analytics, AI usage, rate-limit hits), queued jobs naming it.
// - anonymise (the row stays, nothing in it points at the person): queued emails (eraseUserEmailData,
//   spec 001), ai_usage_logs (cost accounting; metadata emptied), stories of other campaigns it contributed to (authorId removed; the story is the campaign
//   owner's), gifts bought for it by someone else (redeemed_by cleared), content admins made (created_by,
//   updated_by, changed_by cleared by the foreign key), relationships and invitations it made in other
//   families (created_by, invited_by, accepted_by cleared).
// - kept on purpose: email_suppressions (an address that bounced or complained must never be mailed again,
//   whoever asks), other people's records that mention it (a campaign someone runs for it as storyteller),
//   and the security record (CONTRACTS §7): admin_audit_log and admin_impersonations keep who acted on whom
//   as id and email snapshot, without a foreign key; an impersonation still open is ended here with its
//   end row, and the erasure itself is recorded with its actor.
import type { TransactionSql } from 'postgres';

/** tools_* tables whose user_id set-nulls: rows the person generated or that trace them. */
export const TOOLS_USER_TABLES = [
  'tools_adventure_prompts', 'tools_ai_usage', 'tools_analytics', 'tools_book_blurbs', 'tools_character_names', 'tools_comedy_prompts',
  'tools_family_interview_questions', 'tools_first_lines', 'tools_flashcards', 'tools_flipbooks', 'tools_horror_story_prompts',
  'tools_meet_cutes', 'tools_memory_prompts', 'tools_mystery_plots', 'tools_plot_twists', 'tools_rate_limit_hits', 'tools_responses',
  'tools_romance_writing_prompts', 'tools_sessions', 'tools_story_prompts', 'tools_story_titles',
] as const;

export interface ErasedCounts {
  explicit: number;
  anonymised: number;
}

/** The account's email under a row lock (two erasures of one account serialise here); undefined when gone. */
export async function lockAccount(tx: TransactionSql, userId: string): Promise<{ email: string } | undefined> {
  const [row] = await tx<{ email: string }[]>`select email from accounts where id = ${userId} for update`;
  return row;
}

/** Explicit deletes and anonymisations that the foreign keys would not do; the account row itself is left. */
export async function eraseOwnedRows(tx: TransactionSql, userId: string, email: string): Promise<ErasedCounts> {
  const lower = email.toLowerCase();
  let explicit = 0;
  let anonymised = 0;
  const del = async (q: PromiseLike<readonly unknown[]>) => (explicit += (await q).length);
  const anon = async (q: PromiseLike<readonly unknown[]>) => (anonymised += (await q).length);

  await del(tx`delete from gifts where user_id = ${userId} returning id`);
  await del(tx`delete from support_flags where user_id = ${userId} returning id`);
  await del(tx`delete from family_memories where created_by = ${userId} returning id`);
  await del(tx`delete from family_invitations where lower(email) = ${lower} returning id`);
  await del(tx`delete from family_members where user_id is null and lower(email) = ${lower} returning id`);
  await del(tx`delete from waitlist where converted_user_id = ${userId} or lower(email) = ${lower} returning id`);
  await del(tx`delete from auth_lockouts where lower(email) = ${lower} returning email`);
  for (const table of TOOLS_USER_TABLES) await del(tx`delete from ${tx(table)} where user_id = ${userId} returning id`);
  // Jobs still to run about this account would only find its rows gone; finished ones are history naming it.
  await del(tx`delete from jobs where status <> 'running' and payload::text like ${`%${userId}%`} returning id`);

  await anon(tx`update ai_usage_logs set user_id = null, metadata = '{}'::jsonb where user_id = ${userId} returning id`);
  await anon(tx`update stories set metadata = metadata - 'authorId' where metadata ->> 'authorId' = ${userId} returning id`);
  return { explicit, anonymised };
}

/** Remove the account row: every cascading foreign key takes its rows with it, the set-null ones are cleared. */
export async function deleteAccount(tx: TransactionSql, userId: string): Promise<void> {
  await tx`delete from accounts where id = ${userId}`;
}

/** What stays of an erasure: no id, no email, only that one happened, why (as the person said), and how much went. */
/**
 * The erasure's audit row (CONTRACTS §7): who erased (the actor: the account itself, or the admin behind an
 * impersonation token should one ever get this far) and which account, as ids and email snapshots taken
 * before the account row goes, with why (as the person said) and how much went.
 */
export async function recordErasure(
  tx: TransactionSql,
  entry: { account: { id: string; email: string }; actor: { id: string; email: string | null }; reason: string | null; files: number; rows: ErasedCounts; via: string },
): Promise<void> {
  await tx`insert into admin_audit_log (actor_id, actor_email, action, target_type, target_id, target_email, impersonated_user_id, impersonated_user_email, data)
           values (${entry.actor.id}, ${entry.actor.email}, 'account.erased', 'account', ${entry.account.id}, ${entry.account.email},
                   ${entry.actor.id === entry.account.id ? null : entry.account.id}, ${entry.actor.id === entry.account.id ? null : entry.account.email},
                   ${JSON.stringify({ reason: entry.reason, files: entry.files, via: entry.via, ...entry.rows })}::jsonb)`;
}

/** The email of an account (the actor of an erasure), read before anything is removed. */
export async function accountEmail(tx: TransactionSql, userId: string): Promise<string | null> {
  const [row] = await tx<{ email: string }[]>`select email from accounts where id = ${userId}`;
  return row?.email ?? null;
}

/**
 * End every open impersonation of the account or by it, each with its `user.impersonate.end` row, before
 * the account and its sessions go (the sweep of email-service would otherwise find no session to judge by).
 */
export async function endImpersonations(tx: TransactionSql, userId: string): Promise<number> {
  const ended = await tx`
    with ended as (
      update admin_impersonations set ended_at = now()
       where ended_at is null and (user_id = ${userId} or admin_id = ${userId})
      returning id, admin_id, admin_email, user_id, user_email, ended_at
    ), revoked as (
      update auth_sessions s set revoked_at = now(), revoked_reason = 'impersonation_ended'
        from admin_impersonations i
       where i.id in (select id from ended) and s.id = i.session_id and s.revoked_at is null
    )
    insert into admin_audit_log (actor_id, actor_email, action, target_type, target_id, target_email, impersonated_user_id, impersonated_user_email, data)
    select admin_id, admin_email, 'user.impersonate.end', 'account', user_id::text, user_email, user_id, user_email,
           jsonb_build_object('before', jsonb_build_object('impersonationId', id, 'endedAt', null),
                              'after', jsonb_build_object('impersonationId', id, 'endedAt', ended_at, 'endedBy', 'account_deleted'))
      from ended
    returning id`;
  return ended.length;
}
