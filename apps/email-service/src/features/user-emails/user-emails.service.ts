// A signed-in user's own emails and email preferences (spec 001 "User endpoints"). Every query is bound
// to the caller's user_id, so ids of other users' emails are neither read nor changed.
import { and, count, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { AppError } from '@story/http';
import { emailSendQueue, emailTemplates, userEmailPreferences, userNotificationSettings, type Database } from '@story/db';

export interface ListEmailsInput {
  limit: number;
  offset: number;
  unread_only: boolean;
}

export type MarkAction = 'mark_opened' | 'mark_clicked';

/** The email switches of user_notification_settings this API reads and writes. */
export const NOTIFICATION_SWITCHES = ['email_enabled', 'marketing_emails', 'weekly_digest', 'story_updates', 'family_invitations', 'writing_reminders'] as const;
type Switch = (typeof NOTIFICATION_SWITCHES)[number];

export interface EmailPreferences extends Record<Switch, boolean> {
  unsubscribed_categories: string[];
  unsubscribed_all: boolean;
}

export type PreferencesUpdate = Partial<EmailPreferences>;

const SWITCH_COLUMNS = {
  email_enabled: 'emailEnabled',
  marketing_emails: 'marketingEmails',
  weekly_digest: 'weeklyDigest',
  story_updates: 'storyUpdates',
  family_invitations: 'familyInvitations',
  writing_reminders: 'writingReminders',
} as const satisfies Record<Switch, keyof typeof userNotificationSettings.$inferInsert>;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function createUserEmailsService({ db }: { db: Database }) {
  async function list(userId: string, input: ListEmailsInput, onlySent: boolean) {
    const conditions: SQL[] = [eq(emailSendQueue.userId, userId)];
    if (onlySent) conditions.push(eq(emailSendQueue.status, 'sent'));
    if (input.unread_only) conditions.push(isNull(emailSendQueue.openedAt));
    const where = and(...conditions);
    // (user_id, created_at desc) index: the page is an index range read, newest first.
    const [rows, [totals]] = await Promise.all([
      db
        .select({
          id: emailSendQueue.id,
          subject: emailSendQueue.subject,
          html_content: emailSendQueue.htmlContent,
          text_content: emailSendQueue.textContent,
          template_variables: emailSendQueue.templateVariables,
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
        .limit(input.limit)
        .offset(input.offset),
      db.select({ total: count() }).from(emailSendQueue).where(where),
    ]);
    const total = Number(totals?.total ?? 0);
    return {
      emails: rows.map((r) => ({
        id: r.id,
        subject: r.subject,
        html_content: r.html_content,
        text_content: r.text_content,
        template_variables: r.template_variables,
        status: r.status,
        created_at: r.created_at.toISOString(),
        sent_at: iso(r.sent_at),
        opened_at: iso(r.opened_at),
        clicked_at: iso(r.clicked_at),
        email_templates: r.template_id ? { id: r.template_id, name: r.template_name!, display_name: r.template_display_name, category: r.template_category! } : null,
      })),
      total,
      limit: input.limit,
      offset: input.offset,
      has_more: input.offset + rows.length < total,
    };
  }

  /** Stamp the caller's rows; an existing stamp is kept (coalesce), so the first open time survives. */
  async function mark(userId: string, ids: string[], action: MarkAction): Promise<number> {
    const updated = await db
      .update(emailSendQueue)
      .set({
        openedAt: sql`coalesce(${emailSendQueue.openedAt}, now())`,
        ...(action === 'mark_clicked' ? { clickedAt: sql`coalesce(${emailSendQueue.clickedAt}, now())` } : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(emailSendQueue.userId, userId), inArray(emailSendQueue.id, ids)))
      .returning({ id: emailSendQueue.id });
    return updated.length;
  }

  async function getPreferences(userId: string): Promise<EmailPreferences> {
    const [[prefs], [settings]] = await Promise.all([
      db.select().from(userEmailPreferences).where(eq(userEmailPreferences.userId, userId)),
      db.select().from(userNotificationSettings).where(eq(userNotificationSettings.userId, userId)),
    ]);
    // No row means the column defaults of the two tables (subscribed to everything, marketing off).
    return {
      unsubscribed_categories: prefs?.unsubscribedCategories ?? [],
      unsubscribed_all: prefs?.unsubscribedAll ?? false,
      email_enabled: settings?.emailEnabled ?? true,
      marketing_emails: settings?.marketingEmails ?? false,
      weekly_digest: settings?.weeklyDigest ?? true,
      story_updates: settings?.storyUpdates ?? true,
      family_invitations: settings?.familyInvitations ?? true,
      writing_reminders: settings?.writingReminders ?? false,
    };
  }

  return {
    listReceived: (userId: string, input: ListEmailsInput) => list(userId, input, false),
    listInbox: (userId: string, input: ListEmailsInput) => list(userId, input, true),
    mark,

    async markRead(userId: string, id: string): Promise<void> {
      const notFound = new AppError('not_found', 'Email not found', { code: 'EMAIL_NOT_FOUND', details: { email_id: id } });
      if (!UUID_RE.test(id)) throw notFound;
      if ((await mark(userId, [id], 'mark_opened')) === 0) throw notFound;
    },

    getPreferences,

    async updatePreferences(userId: string, update: PreferencesUpdate): Promise<EmailPreferences> {
      const prefs: Partial<typeof userEmailPreferences.$inferInsert> = {};
      if (update.unsubscribed_categories !== undefined) prefs.unsubscribedCategories = [...new Set(update.unsubscribed_categories)];
      if (update.unsubscribed_all !== undefined) prefs.unsubscribedAll = update.unsubscribed_all;
      const switches: Partial<typeof userNotificationSettings.$inferInsert> = {};
      for (const key of NOTIFICATION_SWITCHES) {
        const value = update[key];
        if (value !== undefined) (switches as Record<string, boolean>)[SWITCH_COLUMNS[key]] = value;
      }
      await db.transaction(async (tx) => {
        if (Object.keys(prefs).length) {
          await tx
            .insert(userEmailPreferences)
            .values({ userId, ...prefs })
            .onConflictDoUpdate({ target: userEmailPreferences.userId, set: { ...prefs, updatedAt: new Date() } });
        }
        if (Object.keys(switches).length) {
          await tx
            .insert(userNotificationSettings)
            .values({ userId, ...switches })
            .onConflictDoUpdate({ target: userNotificationSettings.userId, set: { ...switches, updatedAt: new Date() } });
        }
      });
      return getPreferences(userId);
    },
  };
}

export type UserEmailsService = ReturnType<typeof createUserEmailsService>;
