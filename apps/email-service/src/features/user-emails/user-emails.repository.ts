// SQL of a user's own emails and email preferences (Drizzle). Every method takes the caller's user id and
// binds its query to it, so rows of other users are neither read nor changed.
import { and, count, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { accounts, emailSendQueue, emailTemplates, userEmailPreferences, userNotificationSettings, type Database, type DbOrTx } from '@story/db';

export type PreferencesRow = typeof userEmailPreferences.$inferSelect;
export type SettingsRow = typeof userNotificationSettings.$inferSelect;
export type PreferencesValues = Partial<Omit<typeof userEmailPreferences.$inferInsert, 'userId'>>;
export type SettingsValues = Partial<Omit<typeof userNotificationSettings.$inferInsert, 'userId'>>;

export interface UserEmailsFilter {
  onlySent: boolean;
  unreadOnly: boolean;
  limit: number;
  offset: number;
}

export function createUserEmailsRepository(db: Database) {
  return {
    transaction<T>(fn: (tx: DbOrTx) => Promise<T>): Promise<T> {
      return db.transaction(fn);
    },

    /**
     * A page of the user's queue rows with their template, newest first, and the total. Only mail to the
     * address the account has verified is listed (CONTRACTS §7): an account that signed up with someone
     * else's address sees none of that person's mail, and nothing at all until it proves the mailbox.
     */
    async listForUser(userId: string, filter: UserEmailsFilter, tx: DbOrTx = db) {
      const conditions: SQL[] = [
        eq(emailSendQueue.userId, userId),
        sql`exists (select 1 from ${accounts} a where a.id = ${userId} and a.email_confirmed_at is not null and lower(a.email) = lower(${emailSendQueue.toEmail}))`,
      ];
      if (filter.onlySent) conditions.push(eq(emailSendQueue.status, 'sent'));
      if (filter.unreadOnly) conditions.push(isNull(emailSendQueue.openedAt));
      const where = and(...conditions);
      // (user_id, created_at desc) index: the page is an index range read, newest first.
      const [rows, [totals]] = await Promise.all([
        tx
          .select({
            id: emailSendQueue.id,
            subject: emailSendQueue.subject,
            html_content: emailSendQueue.htmlContent,
            text_content: emailSendQueue.textContent,
            template_variables: emailSendQueue.templateVariables,
            sensitive_variables: emailSendQueue.sensitiveVariables,
            status: emailSendQueue.status,
            created_at: emailSendQueue.createdAt,
            sent_at: emailSendQueue.sentAt,
            opened_at: emailSendQueue.openedAt,
            clicked_at: emailSendQueue.clickedAt,
            template_id: emailTemplates.id,
            template_name: emailTemplates.name,
            template_display_name: emailTemplates.displayName,
            template_category: emailTemplates.category,
          })
          .from(emailSendQueue)
          .leftJoin(emailTemplates, eq(emailTemplates.id, emailSendQueue.templateId))
          .where(where)
          .orderBy(desc(emailSendQueue.createdAt), desc(emailSendQueue.id))
          .limit(filter.limit)
          .offset(filter.offset),
        tx.select({ total: count() }).from(emailSendQueue).where(where),
      ]);
      return { rows, total: Number(totals?.total ?? 0) };
    },

    /** Stamp opened (and clicked) on the user's rows; an existing stamp is kept (coalesce), so the first time survives. Returns how many rows matched. */
    async stampForUser(userId: string, ids: string[], clicked: boolean, tx: DbOrTx = db): Promise<number> {
      const updated = await tx
        .update(emailSendQueue)
        .set({
          openedAt: sql`coalesce(${emailSendQueue.openedAt}, now())`,
          ...(clicked ? { clickedAt: sql`coalesce(${emailSendQueue.clickedAt}, now())` } : {}),
          updatedAt: new Date(),
        })
        .where(and(eq(emailSendQueue.userId, userId), inArray(emailSendQueue.id, ids)))
        .returning({ id: emailSendQueue.id });
      return updated.length;
    },

    /** The user's preferences and notification settings rows (either may be missing). */
    async findPreferences(userId: string, tx: DbOrTx = db): Promise<{ prefs?: PreferencesRow; settings?: SettingsRow }> {
      const [[prefs], [settings]] = await Promise.all([
        tx.select().from(userEmailPreferences).where(eq(userEmailPreferences.userId, userId)),
        tx.select().from(userNotificationSettings).where(eq(userNotificationSettings.userId, userId)),
      ]);
      return { prefs, settings };
    },

    /** Create the preferences row with these values, or set them on the existing one. */
    async upsertPreferences(userId: string, values: PreferencesValues, tx: DbOrTx = db): Promise<void> {
      await tx
        .insert(userEmailPreferences)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: userEmailPreferences.userId, set: { ...values, updatedAt: new Date() } });
    },

    /** Create the notification settings row with these values, or set them on the existing one. */
    async upsertSettings(userId: string, values: SettingsValues, tx: DbOrTx = db): Promise<void> {
      await tx
        .insert(userNotificationSettings)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: userNotificationSettings.userId, set: { ...values, updatedAt: new Date() } });
    },
  };
}

export type UserEmailsRepository = ReturnType<typeof createUserEmailsRepository>;
