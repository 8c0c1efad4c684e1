// The inviter's personal message reaches the invitee (the seeded family_invitation template, libs/email and
// migration 0024): quoted in the email, escaped in its HTML, and no empty frame when there is none.
import { buildTestApp, signUp, uniqueEmail, type TestContext } from '../../test/helper';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

it('shows the message in the queued invitation email, escaped, and nothing when there is none', async () => {
  const owner = await signUp(t.app);
  const group = await t.app.inject({ method: 'POST', url: '/api/family/groups', headers: owner.headers, payload: { name: 'The Okafors' } });
  expect(group.statusCode).toBe(201);
  const familyGroupId = group.json().data.id as string;
  const message = 'Come share <b>Grandma</b>\'s stories & "recipes"';
  const withMessage = uniqueEmail('invitee');
  const without = uniqueEmail('invitee');
  for (const [email, extra] of [[withMessage, { message }], [without, {}]] as const) {
    const res = await t.app.inject({ method: 'POST', url: '/api/family/invitations', headers: owner.headers, payload: { familyGroupId, email, role: 'family_viewer', ...extra } });
    expect(res.statusCode).toBe(201);
  }
  const [mail] = await t.database.sql`select html_content, text_content from email_send_queue where to_email = ${withMessage}`;
  expect(String(mail!['html_content'])).toContain('Come share &lt;b&gt;Grandma&lt;/b&gt;&#39;s stories &amp; &quot;recipes&quot;</blockquote>');
  expect(String(mail!['html_content'])).not.toContain('<b>Grandma</b>');
  expect(String(mail!['text_content'])).toContain(`wrote:\n"${message}"`);
  const [plain] = await t.database.sql`select html_content from email_send_queue where to_email = ${without}`;
  expect(String(plain!['html_content'])).not.toContain('<blockquote');
});
