// Test-only helpers: accounts with the settings rows the email code reads, and templates to send.
import type { TestDatabase } from '@story/testing';

let seq = 0;

export async function createAccount(
  t: TestDatabase,
  opts: { email?: string; notifications?: Record<string, boolean>; tier?: string; createdDaysAgo?: number; lastSignInDaysAgo?: number | null } = {},
): Promise<{ id: string; email: string }> {
  const email = opts.email ?? `user${++seq}-${Date.now()}@example.test`;
  const created = opts.createdDaysAgo ?? 0;
  const lastSignIn = opts.lastSignInDaysAgo === undefined ? created : opts.lastSignInDaysAgo;
  const [row] = await t.sql`
    insert into accounts (email, created_at, last_sign_in_at)
    values (${email}, now() - make_interval(days => ${created}), ${lastSignIn === null ? null : t.sql`now() - make_interval(days => ${lastSignIn})`})
    returning id`;
  const id = row!['id'] as string;
  await t.sql`insert into profiles (id, subscription_tier) values (${id}, ${opts.tier ?? 'free'})`;
  if (opts.notifications) {
    const n = opts.notifications;
    await t.sql`insert into user_notification_settings (user_id, email_enabled, story_updates, family_invitations, weekly_digest, marketing_emails, writing_reminders)
      values (${id}, ${n['email_enabled'] ?? true}, ${n['story_updates'] ?? true}, ${n['family_invitations'] ?? true}, ${n['weekly_digest'] ?? true}, ${n['marketing_emails'] ?? false}, ${n['writing_reminders'] ?? false})`;
  }
  return { id, email };
}

export async function createTemplate(
  t: TestDatabase,
  fields: { name: string; category?: string; subject?: string; html?: string; text?: string | null; required?: string[]; defaults?: Record<string, unknown>; triggerEvents?: string[]; delayHours?: number; maxSends?: number | null; active?: boolean },
): Promise<string> {
  const [row] = await t.sql`
    insert into email_templates (name, display_name, category, subject_template, html_template, text_template, required_variables, default_variables, trigger_events, send_delay_hours, max_sends_per_user, is_active)
    values (${fields.name}, ${fields.name}, ${fields.category ?? 'onboarding'}, ${fields.subject ?? 'Hi {{user_name}}'}, ${fields.html ?? '<p>Hello {{user_name}}</p>'},
      ${fields.text === undefined ? 'Hello {{user_name}}' : fields.text}, string_to_array(${(fields.required ?? []).join(',')}, ','), ${JSON.stringify(fields.defaults ?? {})}::jsonb,
      string_to_array(${(fields.triggerEvents ?? []).join(',')}, ','), ${fields.delayHours ?? 0}, ${fields.maxSends ?? null}, ${fields.active ?? true})
    returning id`;
  return row!['id'] as string;
}
