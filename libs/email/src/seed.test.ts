import { createTestDatabase, type TestDatabase } from '@story/testing';
import { placeholdersIn } from './render';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t.drop());

it('seeds the seven system templates with consistent variables', async () => {
  const rows = await t.sql`select name, category, trigger_events, is_system, is_active, subject_template, html_template, text_template,
    available_variables, default_variables, required_variables from email_templates where is_system order by name`;
  expect(rows.map((r) => [r['name'], r['category'], r['trigger_events']])).toEqual([
    ['family_invitation', 'transactional', ['family_invitation']],
    ['gift_notification', 'transactional', ['gift_purchased']],
    ['magic_link', 'transactional', ['magic_link']],
    ['story_reminder', 'reminder', ['story_reminder']],
    ['verify_email', 'transactional', ['email_verification']],
    ['waitlist_verify', 'transactional', ['waitlist_signup']],
    ['welcome', 'onboarding', ['user_signup']],
  ]);
  for (const r of rows) {
    expect(r['is_active']).toBe(true);
    const used = new Set([...placeholdersIn(r['subject_template']), ...placeholdersIn(r['html_template']), ...placeholdersIn(r['text_template'])]);
    // Every placeholder is documented, and every documented variable is used.
    expect([...used].sort()).toEqual(Object.keys(r['available_variables']).sort());
    for (const req of r['required_variables'] as string[]) expect(used.has(req)).toBe(true);
  }
  const invitation = rows.find((r) => r['name'] === 'family_invitation')!;
  expect(invitation['required_variables']).toEqual(['inviter_name', 'family_name', 'invitation_url']);
  expect(rows.find((r) => r['name'] === 'welcome')!['default_variables']).toEqual({ user_name: 'there' });
  expect(rows.find((r) => r['name'] === 'verify_email')!['required_variables']).toEqual(['verification_url']);
  expect(rows.find((r) => r['name'] === 'magic_link')!['required_variables']).toEqual(['magic_link_url']);
  const [versions] = await t.sql`select count(*)::int as n from email_template_versions v join email_templates t on t.id = v.template_id where t.is_system and v.version = 1`;
  expect(versions!['n']).toBe(6);
});
