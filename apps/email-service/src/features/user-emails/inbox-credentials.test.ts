// The in-app inbox never hands out a credential (CONTRACTS §7). The emails are queued through libs/email's
// triggers, exactly as core-api's signup, magic-link request and invitation queue them; the findings of
// the outside audit each have their test here:
// - role support (or admin) taken by reading one's own verification link from the inbox: an unverified
//   account lists nothing, and once verified the link is listed without its token;
// - a family joined by reading the invitation sent to the address one signed up with first: not listed;
// - a magic link read from the inbox while impersonating (to turn 15 minutes into 24 hours): listed
//   without its token, also to the impersonation token.
import { randomBytes } from 'node:crypto';
import { createTokenSigner } from '@story/auth';
import { triggerEmailVerification, triggerFamilyInvitation, triggerMagicLink } from '@story/email';
import { buildTestApp, sessionFor, type TestContext } from '../../test/helper';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const token = () => randomBytes(32).toString('base64url');
const received = async (headers: Record<string, string>) => {
  const res = await t.app.inject({ method: 'GET', url: '/api/user/emails/received', headers });
  expect(res.statusCode).toBe(200);
  return res;
};
const inbox = async (headers: Record<string, string>) => {
  const res = await t.app.inject({ method: 'GET', url: '/api/user/emails/inbox', headers });
  expect(res.statusCode).toBe(200);
  return res;
};
const verify = (userId: string) => t.database.sql`update accounts set email_confirmed_at = now() where id = ${userId}`;

it('lists nothing for an unverified account: its own verification link cannot be read from the inbox', async () => {
  const squatter = await sessionFor(t, 'user');
  const secret = token();
  const queued = await triggerEmailVerification(t.database.db, squatter.userId, { verification_url: `http://app.test/verify-email?token=${secret}`, user_name: 'Sam' });
  expect(queued.queued).toBe(1);
  await t.database.sql`update email_send_queue set status = 'sent', sent_at = now() where user_id = ${squatter.userId}`;

  for (const res of [await received(squatter.headers), await inbox(squatter.headers)]) {
    expect(res.json()).toMatchObject({ total: 0, emails: [] });
    expect(res.body).not.toContain(secret);
  }
});

it('shows a verified account its verification email with the link removed', async () => {
  const me = await sessionFor(t, 'user');
  const secret = token();
  await triggerEmailVerification(t.database.db, me.userId, { verification_url: `http://app.test/verify-email?token=${secret}`, user_name: 'Ann' });
  await verify(me.userId);

  const res = await received(me.headers);
  expect(res.json().total).toBe(1);
  expect(res.body).not.toContain(secret);
  const [email] = res.json().emails;
  expect(email.template_variables).toMatchObject({ verification_url: '[removed]', user_name: 'Ann' });
  expect(email.html_content).toContain('[removed]');
  expect(email.email_templates.name).toBe('verify_email');
});

it('does not list an invitation sent to an address the account has not verified, and hides the token once it has', async () => {
  const squatter = await sessionFor(t, 'user');
  const owner = await sessionFor(t, 'user', { verified: true });
  const secret = token();
  const invite = await triggerFamilyInvitation(t.database.db, owner.userId, {
    family_id: '11111111-1111-4111-8111-111111111111',
    family_name: 'The Ortegas',
    inviter_name: 'Rosa',
    invitation_token: secret,
    invitation_url: `http://app.test/invite/${secret}`,
    to_email: squatter.email,
  });
  expect(invite.queued).toBe(1);
  const [row] = await t.database.sql`select user_id from email_send_queue where to_email = ${squatter.email}`;
  expect(row!['user_id']).toBe(squatter.userId);

  const before = await received(squatter.headers);
  expect(before.json().total).toBe(0);
  expect(before.body).not.toContain(secret);

  await verify(squatter.userId);
  const after = await received(squatter.headers);
  expect(after.json().total).toBe(1);
  expect(after.body).not.toContain(secret);
  expect(after.json().emails[0].template_variables).toMatchObject({ invitation_token: '[removed]', invitation_url: '[removed]', family_name: 'The Ortegas' });
});

it('never shows a magic link, not even to an impersonation token of the account', async () => {
  const me = await sessionFor(t, 'user', { verified: true });
  const secret = token();
  await triggerMagicLink(t.database.db, me.userId, { magic_link_url: `http://app.test/auth/magic?token=${secret}`, user_name: 'Ann' });
  const [session] = await t.database.sql`insert into auth_sessions (user_id, expires_at, user_agent) values (${me.userId}, now() + interval '15 minutes', 'admin-impersonation') returning id`;
  const admin = await sessionFor(t, 'admin', { verified: true });
  const impersonation = await createTokenSigner(t.config.secrets.jwtSecret).sign({
    userId: me.userId,
    email: me.email,
    role: 'user',
    sessionId: session!['id'] as string,
    actorId: admin.userId,
    ttlSeconds: 900,
  });

  for (const headers of [me.headers, { authorization: `Bearer ${impersonation.token}` }]) {
    const res = await received(headers);
    expect(res.json().total).toBe(1);
    expect(res.body).not.toContain(secret);
    expect(res.json().emails[0].template_variables.magic_link_url).toBe('[removed]');
  }
});

it('lists only mail to the address the account holds, not mail its id was given for another address', async () => {
  const me = await sessionFor(t, 'user', { verified: true });
  const [tpl] = await t.database.sql`select id from email_templates where name = 'welcome'`;
  await t.database.sql`insert into email_send_queue (template_id, user_id, to_email, subject, html_content, status, sent_at)
    values (${tpl!['id']}, ${me.userId}, ${me.email}, 'Mine', '<p>mine</p>', 'sent', now()),
           (${tpl!['id']}, ${me.userId}, 'someone.else@example.test', 'Theirs', '<p>theirs</p>', 'sent', now())`;
  const res = await received(me.headers);
  expect(res.json().emails.map((e: { subject: string }) => e.subject)).toEqual(['Mine']);
});
