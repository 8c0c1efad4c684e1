import { createTestDatabase, type TestDatabase } from '@story/testing';
import { eraseUserEmailData, ERASED_CONTENT } from './erasure';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t.drop());

it('deletes the preferences and anonymises only that user\'s queued emails', async () => {
  const [a] = await t.sql`insert into accounts (email) values ('rose@example.test') returning id`;
  const [b] = await t.sql`insert into accounts (email) values ('joe@example.test') returning id`;
  await t.sql`insert into user_email_preferences (user_id) values (${a!['id']}), (${b!['id']})`;
  await t.sql`insert into email_send_queue (user_id, to_email, subject, html_content, text_content, template_variables, status)
    values (${a!['id']}, 'rose@example.test', 'Hi Rose', '<p>Rose</p>', 'Rose', '{"user_name":"Rose"}', 'sent'),
           (${a!['id']}, 'rose@example.test', 'Again', '<p>Rose</p>', null, '{}', 'pending'),
           (${b!['id']}, 'joe@example.test', 'Hi Joe', '<p>Joe</p>', 'Joe', '{"user_name":"Joe"}', 'sent')`;

  expect(await eraseUserEmailData(t.db, a!['id'])).toEqual({ anonymisedEmails: 2 });

  expect(await t.sql`select 1 from user_email_preferences where user_id = ${a!['id']}`).toHaveLength(0);
  const erased = await t.sql`select to_email, subject, html_content, text_content, template_variables, status from email_send_queue where user_id = ${a!['id']}`;
  expect(erased).toHaveLength(2);
  for (const row of erased) {
    expect(row).toMatchObject({ subject: ERASED_CONTENT, html_content: ERASED_CONTENT, text_content: ERASED_CONTENT, template_variables: {} });
    expect(row['to_email']).toMatch(/@erased\.invalid$/);
    expect(JSON.stringify(row)).not.toContain('Rose');
  }
  // Sent rows keep their status (statistics stay true); the pending one is cancelled; the other user is untouched.
  expect(erased.map((r) => r['status']).sort()).toEqual(['cancelled', 'sent']);
  const [other] = await t.sql`select to_email, subject from email_send_queue where user_id = ${b!['id']}`;
  expect(other).toEqual({ to_email: 'joe@example.test', subject: 'Hi Joe' });
  expect(await t.sql`select 1 from user_email_preferences where user_id = ${b!['id']}`).toHaveLength(1);
});
