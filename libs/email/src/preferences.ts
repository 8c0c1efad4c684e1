// Who may receive what. One decision function used at enqueue and again by the worker at send time,
// because preferences and suppressions can change while a row waits in the queue.
import { accounts, type DbOrTx, type EmailCategory, emailSuppressions, type SuppressionReason, userEmailPreferences, userNotificationSettings } from '@story/db';
import { eq, sql } from 'drizzle-orm';

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
  const [suppressed] = await db.select({ reason: emailSuppressions.reason }).from(emailSuppressions).where(eq(emailSuppressions.email, email)).limit(1);
  if (suppressed) return { allowed: false, reason: `suppressed:${suppressed.reason}` };

  const userId = q.userId ?? (await accountIdByEmail(db, email));
  if (!userId) return { allowed: true };

  const [prefs] = await db.select().from(userEmailPreferences).where(eq(userEmailPreferences.userId, userId)).limit(1);
  if (prefs?.suppressedAt) return { allowed: false, reason: `suppressed:${prefs.suppressionReason ?? 'manual'}` };
  if (ALWAYS_SENT.includes(q.category)) return { allowed: true };

  const [settings] = await db.select().from(userNotificationSettings).where(eq(userNotificationSettings.userId, userId)).limit(1);
  if (settings && !settings.emailEnabled) return { allowed: false, reason: 'email_disabled' };
  if (prefs?.unsubscribedAll) return { allowed: false, reason: 'unsubscribed_all' };
  if (prefs?.unsubscribedCategories.includes(q.category)) return { allowed: false, reason: `unsubscribed:${q.category}` };
  // marketing_emails defaults to false: marketing needs an explicit opt-in, also when no settings row exists yet.
  if (q.category === 'marketing' && !(settings?.marketingEmails ?? false)) return { allowed: false, reason: 'marketing_opt_out' };
  if (q.kind && settings) {
    const on = {
      story_updates: settings.storyUpdates,
      family_invitations: settings.familyInvitations,
      weekly_digest: settings.weeklyDigest,
      writing_reminders: settings.writingReminders,
    }[q.kind];
    if (!on) return { allowed: false, reason: `kind_disabled:${q.kind}` };
  }
  return { allowed: true };
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
