// suppressAddress for the webhook's postgres.js transaction. @story/email's suppressAddress runs its own Drizzle
// transaction on another connection; the webhook needs the suppression inside the SAME transaction as the
// svix-id insert (a replay is ignored, so a suppression lost after the event committed would never come back).
// Same effect as the library's: the address row (reason updated) and the owning account's suppressed_at.
import type postgres from 'postgres';

export async function suppressAddressInTransaction(
  tx: postgres.TransactionSql,
  input: { email: string; userId?: string | null; reason: 'hard_bounce' | 'complaint' | 'manual'; sourceEventId?: string | null },
): Promise<void> {
  const email = input.email.trim().toLowerCase();
  await tx`insert into email_suppressions (email, reason, source_event_id) values (${email}, ${input.reason}, ${input.sourceEventId ?? null})
    on conflict (email) do update set reason = excluded.reason, source_event_id = coalesce(excluded.source_event_id, email_suppressions.source_event_id)`;
  const [owner] = input.userId ? [{ id: input.userId }] : await tx<{ id: string }[]>`select id from accounts where lower(email) = ${email} limit 1`;
  if (!owner) return;
  await tx`insert into user_email_preferences (user_id, suppressed_at, suppression_reason) values (${owner.id}, now(), ${input.reason})
    on conflict (user_id) do update set suppressed_at = coalesce(user_email_preferences.suppressed_at, now()),
      suppression_reason = excluded.suppression_reason, updated_at = now()`;
}
