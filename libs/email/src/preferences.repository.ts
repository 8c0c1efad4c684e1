// SQL of who may receive what (Drizzle): suppressions, an account's email preferences and notification
// settings, and the unsubscribe version. Created over a database or a transaction handle, so the library's
// functions run it inside the transactions they open.
import { accounts, type DbOrTx, emailSuppressions, type SuppressionReason, userEmailPreferences } from '@story/db';
import { and, eq, sql } from 'drizzle-orm';

/** Everything the deliverability decision reads about one address, in one row. */
export interface DeliverabilityRow {
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

export function createPreferencesRepository(db: DbOrTx) {
  return {
    /** The id of the account whose email is `email` (already normalised), or null. */
    async accountIdByEmail(email: string, tx: DbOrTx = db): Promise<string | null> {
      const [row] = await tx
        .select({ id: accounts.id })
        .from(accounts)
        .where(sql`lower(${accounts.email}) = ${email}`)
        .limit(1);
      return row?.id ?? null;
    },

    /**
     * One round trip for everything the decision reads (the queue worker asks this for every email it sends):
     * the address's suppression, the account (given, or found by address), its preferences and its settings.
     */
    async deliverability(email: string, userId: string | null, tx: DbOrTx = db): Promise<DeliverabilityRow | undefined> {
      const rows = (await tx.execute(sql`
        select (select reason from email_suppressions where email = ${email} limit 1) as suppressed_reason,
               a.id as user_id, p.suppressed_at, p.suppression_reason, p.unsubscribed_all, p.unsubscribed_categories,
               s.email_enabled, s.marketing_emails, s.story_updates, s.family_invitations, s.weekly_digest, s.writing_reminders
          from (select coalesce(${userId}::uuid, (select id from accounts where lower(email) = ${email} limit 1)) as id) a
          left join user_email_preferences p on p.user_id = a.id
          left join user_notification_settings s on s.user_id = a.id`)) as unknown as DeliverabilityRow[];
      return rows[0];
    },

    /** deliverability() of many addresses in one statement; rows in the order of `targets`. */
    async deliverabilityMany(targets: readonly { email: string; userId: string | null }[], tx: DbOrTx = db): Promise<DeliverabilityRow[]> {
      const emails = targets.map((t) => t.email);
      const userIds = targets.map((t) => t.userId);
      const rows = (await tx.execute(sql`
        select (select reason from email_suppressions where email = t.email limit 1) as suppressed_reason,
               a.id as user_id, p.suppressed_at, p.suppression_reason, p.unsubscribed_all, p.unsubscribed_categories,
               s.email_enabled, s.marketing_emails, s.story_updates, s.family_invitations, s.weekly_digest, s.writing_reminders
          from unnest(${`{${emails.map(pgArrayItem).join(',')}}`}::text[], ${`{${userIds.map((u) => (u === null ? 'NULL' : pgArrayItem(u))).join(',')}}`}::uuid[])
                 with ordinality as t(email, user_id, n)
          cross join lateral (select coalesce(t.user_id, (select id from accounts where lower(email) = t.email limit 1)) as id) a
          left join user_email_preferences p on p.user_id = a.id
          left join user_notification_settings s on s.user_id = a.id
         order by t.n`)) as unknown as DeliverabilityRow[];
      return rows;
    },

    /** Suppress an address; a repeated suppression takes the new reason and keeps the first source event. */
    async upsertSuppression(input: { email: string; reason: SuppressionReason; sourceEventId: string | null }, tx: DbOrTx = db): Promise<void> {
      await tx
        .insert(emailSuppressions)
        .values({ email: input.email, reason: input.reason, sourceEventId: input.sourceEventId })
        .onConflictDoUpdate({
          target: emailSuppressions.email,
          set: { reason: sql`excluded.reason`, sourceEventId: sql`coalesce(excluded.source_event_id, ${emailSuppressions.sourceEventId})` },
        });
    },

    /** Mark an account suppressed (the first time is kept) with the latest reason. */
    async markAccountSuppressed(userId: string, reason: SuppressionReason, tx: DbOrTx = db): Promise<void> {
      await tx
        .insert(userEmailPreferences)
        .values({ userId, suppressedAt: sql`now()`, suppressionReason: reason })
        .onConflictDoUpdate({
          target: userEmailPreferences.userId,
          set: {
            suppressedAt: sql`coalesce(${userEmailPreferences.suppressedAt}, now())`,
            suppressionReason: reason,
            updatedAt: sql`now()`,
          },
        });
    },

    /** The user's unsubscribe_token_version, or undefined when they have no preferences row yet. */
    async unsubscribeVersion(userId: string, tx: DbOrTx = db): Promise<number | undefined> {
      const [row] = await tx.select({ v: userEmailPreferences.unsubscribeTokenVersion }).from(userEmailPreferences).where(eq(userEmailPreferences.userId, userId)).limit(1);
      return row?.v;
    },

    /**
     * Create the user's preferences row with the defaults if missing. Selecting from accounts makes a user id
     * of a deleted account a no-op instead of a foreign-key error.
     */
    async ensurePreferencesRow(userId: string, tx: DbOrTx = db): Promise<void> {
      await tx.execute(sql`insert into user_email_preferences (user_id) select id from accounts where id = ${userId} on conflict (user_id) do nothing`);
    },

    /**
     * Opt the user out of everything optional (`'all'`) or of one category, only while their token version is
     * still `version`; false when no row matched (the link was revoked).
     */
    async unsubscribe(userId: string, category: string, version: number, tx: DbOrTx = db): Promise<boolean> {
      const updated = await tx
        .update(userEmailPreferences)
        .set(
          category === 'all'
            ? { unsubscribedAll: true, updatedAt: sql`now()` }
            : {
                unsubscribedCategories: sql`(select array(select distinct c from unnest(array_append(${userEmailPreferences.unsubscribedCategories}, ${category}::text)) c order by c))`,
                updatedAt: sql`now()`,
              },
        )
        .where(and(eq(userEmailPreferences.userId, userId), eq(userEmailPreferences.unsubscribeTokenVersion, version)))
        .returning({ userId: userEmailPreferences.userId });
      return updated.length > 0;
    },

    /** Delete the user's preferences row (erasure). */
    async deletePreferences(userId: string, tx: DbOrTx = db): Promise<void> {
      await tx.delete(userEmailPreferences).where(eq(userEmailPreferences.userId, userId));
    },
  };
}

export type PreferencesRepository = ReturnType<typeof createPreferencesRepository>;

/** One element of a PostgreSQL array literal, quoted (Drizzle's sql`` has no array parameter of its own). */
function pgArrayItem(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
