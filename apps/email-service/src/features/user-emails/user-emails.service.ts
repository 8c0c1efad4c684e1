// A signed-in user's own emails and email preferences (spec 001 "User endpoints"). Every query is bound
// to the caller's user_id, so ids of other users' emails are neither read nor changed. The in-app copy of
// an email never carries a credential (CONTRACTS §7): links and codes marked at enqueue are removed
// (libs/email redactQueuedEmail); the mailbox alone gets them.
import { redactQueuedEmail } from '@story/email';
import { AppError } from '@story/http';
import type { PreferencesValues, SettingsValues, UserEmailsRepository } from './user-emails.repository';

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
} as const satisfies Record<Switch, keyof SettingsValues>;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function createUserEmailsService({ userEmails }: { userEmails: UserEmailsRepository }) {
  async function list(userId: string, input: ListEmailsInput, onlySent: boolean) {
    const { rows, total } = await userEmails.listForUser(userId, { onlySent, unreadOnly: input.unread_only, limit: input.limit, offset: input.offset });
    return {
      emails: rows.map((r) => {
        const shown = redactQueuedEmail({ subject: r.subject, html: r.html_content, text: r.text_content, variables: r.template_variables, sensitiveVariables: r.sensitive_variables });
        return {
          id: r.id,
          subject: shown.subject,
          html_content: shown.html,
          text_content: shown.text,
          template_variables: shown.variables,
          status: r.status,
          created_at: r.created_at.toISOString(),
          sent_at: iso(r.sent_at),
          opened_at: iso(r.opened_at),
          clicked_at: iso(r.clicked_at),
          email_templates: r.template_id ? { id: r.template_id, name: r.template_name!, display_name: r.template_display_name, category: r.template_category! } : null,
        };
      }),
      total,
      limit: input.limit,
      offset: input.offset,
      has_more: input.offset + rows.length < total,
    };
  }

  /** Stamp the caller's rows; an existing stamp is kept (coalesce), so the first open time survives. */
  async function mark(userId: string, ids: string[], action: MarkAction): Promise<number> {
    return userEmails.stampForUser(userId, ids, action === 'mark_clicked');
  }

  async function getPreferences(userId: string): Promise<EmailPreferences> {
    const { prefs, settings } = await userEmails.findPreferences(userId);
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
      const prefs: PreferencesValues = {};
      if (update.unsubscribed_categories !== undefined) prefs.unsubscribedCategories = [...new Set(update.unsubscribed_categories)];
      if (update.unsubscribed_all !== undefined) prefs.unsubscribedAll = update.unsubscribed_all;
      const switches: SettingsValues = {};
      for (const key of NOTIFICATION_SWITCHES) {
        const value = update[key];
        if (value !== undefined) (switches as Record<string, boolean>)[SWITCH_COLUMNS[key]] = value;
      }
      await userEmails.transaction(async (tx) => {
        if (Object.keys(prefs).length) await userEmails.upsertPreferences(userId, prefs, tx);
        if (Object.keys(switches).length) await userEmails.upsertSettings(userId, switches, tx);
      });
      return getPreferences(userId);
    },
  };
}

export type UserEmailsService = ReturnType<typeof createUserEmailsService>;
