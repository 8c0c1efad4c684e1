// Spec 000 Authentication 10: no secret or token reaches core-api's log. The pino stream is captured at the
// most verbose level while a person signs up, fails and succeeds to sign in, refreshes (and replays the old
// refresh token), verifies the email, signs in by magic link, invites and is invited, shares a story and
// opens the link, asks for a direct-upload ticket and uses it, sends tampered tokens and signs out; then no
// password, access or refresh token, email or magic-link token, invitation token, share token, upload ticket
// or configured secret appears in any log line, whole or URL-encoded. (core-api has no password-reset route:
// a forgotten password is replaced by the magic link, CONTRACTS §10.) The redaction rules themselves:
// libs/http/src/log-serializer.test.ts; invitation URLs: src/request-log-and-proxy.test.ts.
import { logCapture, testEnv } from '@story/testing';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { newFamilyGroup, setTier } from '../test/family-factories';
import { buildTestApp, uniqueEmail, type TestContext } from '../test/helper';

const SECRETS = {
  JWT_SECRET: 'log-check-jwt-secret-0123456789-abcdefghijklmnop',
  UPLOAD_TICKET_SECRET: 'log-check-upload-ticket-secret-0123456789-abcdef',
  CRON_SECRET: 'log-check-cron-secret-0123456789',
};
const PASSWORD = 'Secret horse 42 battery staple';
const WRONG_PASSWORD = 'Wrong horse 43 battery staple';

let t: TestContext;
const logs = logCapture();
let app: TestContext['app'];
beforeAll(async () => {
  t = await buildTestApp(SECRETS);
  app = await buildApp({ config: loadConfig(testEnv({ ...SECRETS, LOG_LEVEL: 'trace' })), deps: { database: t.database, logStream: logs.stream } });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await t.close();
});

/** The newest link token of a template in the account's queued emails. */
async function mailedToken(email: string, template: string, pattern: RegExp): Promise<string> {
  const [row] = await t.database.sql`
    select q.text_content from email_send_queue q join email_templates tp on tp.id = q.template_id
    where q.to_email = ${email} and tp.name = ${template} order by q.created_at desc, q.id desc limit 1`;
  const match = pattern.exec(String(row?.['text_content'] ?? ''));
  if (!match) throw new Error(`no ${template} token for ${email}`);
  return match[1]!;
}

it('logs none of the secrets and tokens of a whole account journey', async () => {
  const secrets: Record<string, string> = { password: PASSWORD, wrongPassword: WRONG_PASSWORD, ...SECRETS };
  const ok = (res: { statusCode: number; body: string }, status: number) => {
    if (res.statusCode !== status) throw new Error(`${res.statusCode} ${res.body}`);
    return JSON.parse(res.body);
  };

  // Sign-up, a failed and a good sign-in, refresh and a replayed refresh token.
  const email = uniqueEmail('logs');
  const signup = ok(await app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email, password: PASSWORD, fullName: 'Log Check' } }), 201);
  secrets['signupAccess'] = signup.session.access_token;
  secrets['signupRefresh'] = signup.session.refresh_token;
  expect((await app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password: WRONG_PASSWORD } })).statusCode).toBe(401);
  const signin = ok(await app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password: PASSWORD } }), 200);
  secrets['signinAccess'] = signin.session.access_token;
  secrets['signinRefresh'] = signin.session.refresh_token;
  const refreshed = ok(await app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: signin.session.refresh_token } }), 200);
  secrets['refreshedAccess'] = refreshed.session.access_token;
  secrets['refreshedRefresh'] = refreshed.session.refresh_token;
  // Reuse of a rotated refresh token is refused (and ends that session): sign in again to go on.
  expect((await app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: signin.session.refresh_token } })).statusCode).toBe(401);
  const again = ok(await app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password: PASSWORD } }), 200);
  secrets['againAccess'] = again.session.access_token;
  secrets['againRefresh'] = again.session.refresh_token;
  const headers = { authorization: `Bearer ${again.session.access_token}` };

  // Email verification (token from the queued email), resend, and a wrong token.
  secrets['verifyToken'] = await mailedToken(email, 'verify_email', /verify-email\?token=([A-Za-z0-9_-]{43})/);
  ok(await app.inject({ method: 'POST', url: '/api/auth/resend-verification', headers }), 200);
  secrets['verifyToken2'] = await mailedToken(email, 'verify_email', /verify-email\?token=([A-Za-z0-9_-]{43})/);
  // Presented with the account's own session, as the web application does: its password and sessions stay.
  ok(await app.inject({ method: 'POST', url: '/api/auth/verify-email', headers, payload: { token: secrets['verifyToken2'] } }), 200);
  expect((await app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token: secrets['verifyToken'] } })).statusCode).toBeGreaterThanOrEqual(400);

  // Magic link: request, sign in with it, and replay it.
  ok(await app.inject({ method: 'POST', url: '/api/auth/magic-link', payload: { email } }), 200);
  secrets['magicToken'] = await mailedToken(email, 'magic_link', /auth\/magic\?token=([A-Za-z0-9_-]{43})/);
  const magic = ok(await app.inject({ method: 'POST', url: '/api/auth/magic-link/verify', payload: { token: secrets['magicToken'] } }), 200);
  secrets['magicAccess'] = magic.session.access_token;
  secrets['magicRefresh'] = magic.session.refresh_token;
  expect((await app.inject({ method: 'POST', url: '/api/auth/magic-link/verify', payload: { token: secrets['magicToken'] } })).statusCode).toBeGreaterThanOrEqual(400);

  // A family invitation: created, previewed before sign-in, read, accepted by a new account.
  const owner = signup.user.id as string;
  await setTier(t.database.sql, owner, 'family');
  const group = await newFamilyGroup(t.database.sql, { ownerId: owner });
  const inviteeEmail = uniqueEmail('invitee');
  const invitation = ok(await app.inject({ method: 'POST', url: '/api/family/invitations', headers, payload: { familyGroupId: group.id, email: inviteeEmail, role: 'family_viewer', message: 'Join us' } }), 201);
  const inviteToken = String(invitation.invitation.inviteUrl).split('/').pop()!;
  secrets['inviteToken'] = inviteToken;
  ok(await app.inject({ method: 'GET', url: `/api/family/invitations/${inviteToken}/public` }), 200);
  // Accepting needs a verified address (CONTRACTS §7): signup-with-invitation makes the account and keeps
  // the invitation, accepted when the invitee verifies the address with its own session.
  const invitee = ok(await app.inject({ method: 'POST', url: '/api/auth/signup-with-invitation', payload: { email: inviteeEmail, password: PASSWORD, token: inviteToken } }), 201);
  secrets['inviteeAccess'] = invitee.session.access_token;
  secrets['inviteeRefresh'] = invitee.session.refresh_token;
  const inviteeHeaders = { authorization: `Bearer ${invitee.session.access_token}` };
  secrets['inviteeVerifyToken'] = await mailedToken(inviteeEmail, 'verify_email', /verify-email\?token=([A-Za-z0-9_-]{43})/);
  ok(await app.inject({ method: 'POST', url: '/api/auth/verify-email', headers: inviteeHeaders, payload: { token: secrets['inviteeVerifyToken'] } }), 200);
  expect((await app.inject({ method: 'POST', url: '/api/family/invitations/accept', headers: inviteeHeaders, payload: { token: inviteToken } })).statusCode).toBe(409);
  await app.inject({ method: 'GET', url: `/api/family/invitations/${inviteToken}`, headers: { authorization: `Bearer ${invitee.session.access_token}` } });
  await app.inject({ method: 'GET', url: `/api/family/welcome/${inviteToken}`, headers: { authorization: `Bearer ${invitee.session.access_token}` } });

  // A story share link, opened without a session, with the token in the path and as a query parameter.
  const story = ok(await app.inject({ method: 'POST', url: '/api/stories', headers, payload: { title: 'Shared', content: '<p>Hello</p>' } }), 201);
  const storyId = (story.story ?? story).id as string;
  const share = ok(await app.inject({ method: 'POST', url: `/api/stories/${storyId}/share`, headers, payload: {} }), 201);
  const shareToken = String(share.url).split('/').pop()!;
  secrets['shareToken'] = shareToken;
  ok(await app.inject({ method: 'GET', url: `/api/share/${shareToken}` }), 200);
  // The story share link as the API hands it out: /api/stories/{storyId}/share/{shareId}.
  ok(await app.inject({ method: 'GET', url: new URL(String(share.url)).pathname }), 200);
  await app.inject({ method: 'GET', url: `/api/share/${shareToken}/audio` });
  await app.inject({ method: 'GET', url: `/api/nope?token=${shareToken}&access_token=${refreshed.session.access_token}` });

  // A direct-upload ticket, used against the wrong key.
  const presign = ok(await app.inject({ method: 'POST', url: '/api/uploads/presign', headers, payload: { fileName: 'long.mp3', contentType: 'audio/mpeg', size: 9 * 1024 * 1024 } }), 200);
  secrets['uploadTicket'] = presign.ticket;
  await app.inject({ method: 'PUT', url: String(presign.uploadUrl).replace(/^https?:\/\/[^/]+/, ''), headers: { 'content-type': 'audio/mpeg', ...(presign.headers ?? {}) }, payload: Buffer.alloc(10) });
  await app.inject({ method: 'POST', url: '/api/uploads/register', headers, payload: { key: 'uploads/other/none.mp3', ticket: presign.ticket } });

  // A lockout: five failed sign-ins for one address, then the refused sixth (logged as a warning).
  const lockedEmail = uniqueEmail('locked');
  ok(await app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email: lockedEmail, password: PASSWORD } }), 201);
  for (let i = 0; i < 5; i++) await app.inject({ method: 'POST', url: '/api/auth/signin', remoteAddress: `10.77.0.${i + 1}`, payload: { email: lockedEmail, password: WRONG_PASSWORD } });
  expect((await app.inject({ method: 'POST', url: '/api/auth/signin', remoteAddress: '10.77.0.9', payload: { email: lockedEmail, password: PASSWORD } })).statusCode).toBe(429);
  // An address in a query string and in an error sentence (inviting an address that is already a member).
  await app.inject({ method: 'GET', url: `/api/campaigns?email=${encodeURIComponent(email)}`, headers });
  await app.inject({ method: 'POST', url: '/api/family/invitations', headers, payload: { familyGroupId: group.id, email: inviteeEmail, role: 'family_viewer' } });
  secrets['email'] = email;
  secrets['inviteeEmail'] = inviteeEmail;
  secrets['lockedEmail'] = lockedEmail;

  // Tampered and foreign tokens, then sign-out and the refused old token.
  const [h, p] = String(again.session.access_token).split('.');
  await app.inject({ method: 'GET', url: '/api/campaigns', headers: { authorization: `Bearer ${h}.${p}.forged-signature-forged-signature` } });
  await app.inject({ method: 'GET', url: '/api/campaigns', headers: { authorization: `Bearer ${secrets['signupRefresh']}` } });
  ok(await app.inject({ method: 'POST', url: '/api/auth/signout', headers }), 200);
  expect((await app.inject({ method: 'GET', url: '/api/campaigns', headers })).statusCode).toBe(401);

  const text = logs.text();
  // The lockout and the refused invitation were logged, with the addresses masked.
  expect(text).toContain('sign-in locked after repeated failures');
  expect(text).toMatch(/l\*\*\*@example\.test/);
  // The capture is real: requests were logged, routes readable, credentials redacted.
  expect(logs.lines.length).toBeGreaterThan(60);
  expect(text).toContain('/api/auth/signin');
  expect(text).toContain('/api/share/[redacted]');
  const leaked = Object.entries(secrets).flatMap(([name, value]) => {
    const forms = [value, encodeURIComponent(value)];
    // A JWT's signature alone is enough to matter.
    if (value.split('.').length === 3) forms.push(value.split('.')[2]!);
    return forms.some((f) => f.length >= 8 && text.includes(f)) ? [name] : [];
  });
  expect(leaked).toEqual([]);
});
