// A credential email keeps no usable credential once final (CONTRACTS §7): the mailbox gets the link, the
// stored row (which the inbox, the data export and admin views read) keeps the copy without it. Emails are
// queued through libs/email's triggers, as core-api queues them, and sent to a real SMTP server.
import { randomBytes } from 'node:crypto';
import { triggerFamilyInvitation, triggerMagicLink } from '@story/email';
import { createEmailQueueWorker } from './email-queue.worker';
import { buildPipelineApp, createAccount, FROM, type PipelineContext } from './test/pipeline-harness';

let t: PipelineContext;
beforeAll(async () => {
  t = await buildPipelineApp();
});
afterAll(async () => t.close());
beforeEach(async () => {
  await t.database.sql`delete from email_send_queue`;
  t.smtp.received.length = 0;
  t.smtp.rejectWith(null);
});

const worker = () =>
  createEmailQueueWorker({
    db: t.database.db,
    sql: t.database.sql,
    delivery: t.delivery,
    from: FROM,
    batchSize: 50,
    maxAttempts: 3,
    unsubscribe: { baseUrl: 'https://stories.example', secret: t.config.secrets.jwtSecret },
  });

/** The message as the reader sees it: quoted-printable soft line breaks joined. */
const unfolded = (raw: string) => raw.replace(/=\r?\n/g, '');
const stored = async (to: string) => (await t.database.sql`select * from email_send_queue where to_email = ${to}`)[0]!;
const secret = () => randomBytes(32).toString('base64url');

it('delivers the sign-in link, then stores the sent row without it', async () => {
  const user = await createAccount(t);
  const token = secret();
  await triggerMagicLink(t.database.db, user.id, { magic_link_url: `https://app.example/auth/magic?token=${token}`, user_name: 'Ann' });
  expect((await stored(user.email))['sensitive_variables']).toEqual(['magic_link_url']);

  expect(await worker().processBatch()).toMatchObject({ sent: 1 });
  expect(unfolded(t.smtp.received[0]!.raw)).toContain(token);
  const row = await stored(user.email);
  expect(row['status']).toBe('sent');
  expect(row['redacted_at']).not.toBeNull();
  expect(JSON.stringify(row)).not.toContain(token);
  expect(row['template_variables']).toMatchObject({ magic_link_url: '[removed]', user_name: 'Ann' });
  expect(row['html_content']).toContain('[removed]');
});

it('stores an invitation that failed for good without its token either', async () => {
  const inviter = await createAccount(t);
  const token = secret();
  const to = `invitee.${randomBytes(3).toString('hex')}@example.test`;
  await triggerFamilyInvitation(t.database.db, inviter.id, {
    family_id: '11111111-1111-4111-8111-111111111111',
    family_name: 'The Ortegas',
    inviter_name: 'Rosa',
    invitation_token: token,
    invitation_url: `https://app.example/invite/${token}`,
    to_email: to,
  });
  t.smtp.rejectWith(550);
  expect(await worker().processBatch()).toMatchObject({ failed: 1 });
  const row = await stored(to);
  expect(row['status']).toBe('failed');
  expect(JSON.stringify(row)).not.toContain(token);
});

it('leaves rows without a credential exactly as they were', async () => {
  const user = await createAccount(t);
  const [tpl] = await t.database.sql`select id from email_templates where name = 'welcome'`;
  await t.database.sql`insert into email_send_queue (template_id, user_id, to_email, subject, html_content, template_variables, category)
    values (${tpl!['id']}, ${user.id}, ${user.email}, 'Hi', '<p>https://app.example/x?token=notasecret1234567890</p>', '{"user_name":"Ann"}'::jsonb, 'transactional')`;
  await worker().processBatch();
  expect(await stored(user.email)).toMatchObject({ status: 'sent', redacted_at: null, html_content: '<p>https://app.example/x?token=notasecret1234567890</p>' });
});
