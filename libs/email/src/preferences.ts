// Who may receive what. One decision function used at enqueue and again by the worker at send time,
// because preferences and suppressions can change while a row waits in the queue.
import type { DbOrTx, EmailCategory, SuppressionReason } from '@story/db';
import { createPreferencesRepository, type DeliverabilityRow } from './preferences.repository';

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

/**
 * Decide whether an email may go to this address. Without a userId the address's account (if any) is
 * looked up, so an opt-out also covers mail addressed by email only. No settings row means the defaults.
 */
export async function checkDeliverable(db: DbOrTx, q: DeliverabilityQuery): Promise<Deliverability> {
  const row = await createPreferencesRepository(db).deliverability(normalizeEmail(q.email), q.userId ?? null);
  return decide(row, q);
}

/**
 * checkDeliverable for many recipients in one round trip (the queue worker checks a claimed batch at once);
 * answers in the order of `queries`, each decided exactly as checkDeliverable decides it.
 */
export async function checkDeliverableMany(db: DbOrTx, queries: readonly DeliverabilityQuery[]): Promise<Deliverability[]> {
  if (queries.length === 0) return [];
  const rows = await createPreferencesRepository(db).deliverabilityMany(queries.map((q) => ({ email: normalizeEmail(q.email), userId: q.userId ?? null })));
  return queries.map((q, i) => decide(rows[i], q));
}

function decide(row: DeliverabilityRow | undefined, q: DeliverabilityQuery): Deliverability {
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
    const preferences = createPreferencesRepository(tx);
    await preferences.upsertSuppression({ email, reason: input.reason, sourceEventId: input.sourceEventId ?? null });
    const userId = input.userId ?? (await preferences.accountIdByEmail(email));
    if (!userId) return;
    await preferences.markAccountSuppressed(userId, input.reason);
  });
}
