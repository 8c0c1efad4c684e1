// Who may receive what. One decision function used at enqueue and again by the worker at send time,
// because preferences and suppressions can change while a row waits in the queue.
import { accounts, type DbOrTx, type EmailCategory, emailSuppressions, type SuppressionReason, userEmailPreferences } from '@story/db';
import { sql } from 'drizzle-orm';

/** Per-kind switches of user_notification_settings that a non-transactional email can be filed under. */
export type NotificationKind = 'story_updates' | 'family_invitations' | 'weekly_digest' | 'writing_reminders';

export type Deliverability = { allowed: true } | { allowed: false; reason: string };

export interface DeliverabilityQuery {
  userId?: string | null;
  email: string;
  category: EmailCategory;
  kind?: NotificationKind;
}

/** Mail the user asked for or must get (password reset, an invitation they requested): only suppression stops it. */
const ALWAYS_SENT: readonly EmailCategory[] = ['transactional', 'system'];

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

async function accountIdByEmail(db: DbOrTx, email: string): Promise<string | null> {
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(sql`lower(${accounts.email}) = ${normalizeEmail(email)}`)
    .limit(1);
  return row?.id ?? null;
}

/**
 * Decide whether an email may go to this address. Without a userId the address's account (if any) is
 * looked up, so an opt-out also covers mail addressed by email only. No settings row means the defaults.
 */
export async function checkDeliverable(db: DbOrTx, q: DeliverabilityQuery): Promise<Deliverability> {
  const email = normalizeEmail(q.email);
  // One round trip for everything the decision reads (the queue worker asks this for every email it sends):
  // the address's suppression, the account (given, or found by address), its preferences and its settings.
  const rows = (await db.execute(sql`
    select (select reason from email_suppressions where email = ${email} limit 1) as suppressed_reason,
           a.id as user_id, p.suppressed_at, p.suppression_reason, p.unsubscribed_all, p.unsubscribed_categories,
           s.email_enabled, s.marketing_emails, s.story_updates, s.family_invitations, s.weekly_digest, s.writing_reminders
      from (select coalesce(${q.userId ?? null}::uuid, (select id from accounts where lower(email) = ${email} limit 1)) as id) a
      left join user_email_preferences p on p.user_id = a.id
      left join user_notification_settings s on s.user_id = a.id`)) as unknown as DeliverabilityRow[];
  const row = rows[0];
  if (row?.suppressed_reason) return { allowed: false, reason: `suppressed:${row.suppressed_reason}` };
  if (!row?.user_id) return { allowed: true };
  if (row.suppressed_at) return { allowed: false, reason: `suppressed:${row.suppression_reason ?? 'manual'}` };
  if (ALWAYS_SENT.includes(q.category)) return { allowed: true };

  // A missing settings row means the defaults (email on, marketing off, kinds on).
  const hasSettings = row.email_enabled !== null;
  if (hasSettings && !row.email_enabled) return { allowed: false, reason: 'email_disabled' };
  if (row.unsubscribed_all) return { allowed: false, reason: 'unsubscribed_all' };
  if (row.unsubscribed_categories?.includes(q.category)) return { allowed: false, reason: `unsubscribed:${q.category}` };
  // marketing_emails defaults to false: marketing needs an explicit opt-in, also when no settings row exists yet.
  if (q.category === 'marketing' && !(row.marketing_emails ?? false)) return { allowed: false, reason: 'marketing_opt_out' };
  if (q.kind && hasSettings) {
    const on = {
      story_updates: row.story_updates,
      family_invitations: row.family_invitations,
      weekly_digest: row.weekly_digest,
      writing_reminders: row.writing_reminders,
    }[q.kind];
    if (!on) return { allowed: false, reason: `kind_disabled:${q.kind}` };
  }
  return { allowed: true };
}

interface DeliverabilityRow {
  suppressed_reason: string | null;
  user_id: string | null;
  suppressed_at: string | Date | null;
  suppression_reason: string | null;
  unsubscribed_all: boolean | null;
  unsubscribed_categories: string[] | null;
  email_enabled: boolean | null;
  marketing_emails: boolean | null;
  story_updates: boolean | null;
  family_invitations: boolean | null;
  weekly_digest: boolean | null;
  writing_reminders: boolean | null;
}

export interface SuppressInput {
  email: string;
  userId?: string | null;
  reason: SuppressionReason;
  sourceEventId?: string | null;
}

/**
 * Stop all mail to an address after a hard bounce or complaint (or by hand). Also marks the account that
 * owns the address, so the block survives the user changing nothing and shows in their preferences.
 */
export async function suppressAddress(db: DbOrTx, input: SuppressInput): Promise<void> {
  const email = normalizeEmail(input.email);
  await db.transaction(async (tx) => {
    await tx
      .insert(emailSuppressions)
      .values({ email, reason: input.reason, sourceEventId: input.sourceEventId ?? null })
      .onConflictDoUpdate({
        target: emailSuppressions.email,
        set: { reason: sql`excluded.reason`, sourceEventId: sql`coalesce(excluded.source_event_id, ${emailSuppressions.sourceEventId})` },
      });
    const userId = input.userId ?? (await accountIdByEmail(tx, email));
    if (!userId) return;
    await tx
      .insert(userEmailPreferences)
      .values({ userId, suppressedAt: sql`now()`, suppressionReason: input.reason })
      .onConflictDoUpdate({
        target: userEmailPreferences.userId,
        set: {
          suppressedAt: sql`coalesce(${userEmailPreferences.suppressedAt}, now())`,
          suppressionReason: input.reason,
          updatedAt: sql`now()`,
        },
      });
  });
}
