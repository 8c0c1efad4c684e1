// Spec 000 Authentication 10: no secret or token reaches email-service's log. The pino stream is captured at
// the most verbose level while an admin impersonates a user (the impersonation token is used and then
// refused), the cron route is called with the right and a wrong CRON_SECRET, delivery webhooks arrive signed,
// tampered and replayed, an unsubscribe link is opened and posted, and tampered Bearer tokens are sent; then
// no access token, impersonation token, cron secret, webhook secret or signature, unsubscribe token or JWT
// secret appears in any log line, whole or URL-encoded.
import { randomUUID } from 'node:crypto';
import { Webhook } from 'svix';
import { createUnsubscribeTokens } from '@story/email';
import { logCapture, testEnv } from '@story/testing';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { buildTestApp, sessionFor, type TestContext } from '../test/helper';

const SECRETS = {
  JWT_SECRET: 'log-check-jwt-secret-0123456789-abcdefghijklmnop',
  CRON_SECRET: 'log-check-cron-secret-0123456789',
  EMAIL_WEBHOOK_SECRET: `whsec_${Buffer.from('log-check-webhook-secret-0123456789').toString('base64')}`,
};

let t: TestContext;
let app: TestContext['app'];
const logs = logCapture();
beforeAll(async () => {
  t = await buildTestApp(SECRETS);
  app = await buildApp({ config: loadConfig(testEnv({ ...SECRETS, LOG_LEVEL: 'trace' })), deps: { database: t.database, logStream: logs.stream } });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await t.close();
});

it('logs none of the secrets and tokens of admin, cron, webhook and unsubscribe traffic', async () => {
  const secrets: Record<string, string> = { ...SECRETS, webhookKey: SECRETS.EMAIL_WEBHOOK_SECRET.slice('whsec_'.length) };
  const admin = await sessionFor(t, 'admin');
  const user = await sessionFor(t);
  secrets['adminToken'] = admin.headers.authorization.slice('Bearer '.length);
  secrets['userToken'] = user.headers.authorization.slice('Bearer '.length);

  // Impersonation: start, use the token, end it, use it again (refused).
  const started = await app.inject({ method: 'POST', url: `/api/admin/users/${user.userId}/impersonate`, headers: admin.headers, payload: { reason: 'Ticket 7: log check' } });
  expect(started.statusCode).toBe(201);
  const impersonationToken = started.json().session.access_token as string;
  secrets['impersonationToken'] = impersonationToken;
  expect((await app.inject({ method: 'GET', url: '/api/user/emails/received', headers: { authorization: `Bearer ${impersonationToken}` } })).statusCode).toBe(200);
  expect((await app.inject({ method: 'GET', url: '/api/admin/stats/users', headers: { authorization: `Bearer ${impersonationToken}` } })).statusCode).toBe(403);
  await app.inject({ method: 'POST', url: `/api/admin/impersonations/${started.json().impersonation.id}/end`, headers: admin.headers });
  expect((await app.inject({ method: 'GET', url: '/api/user/emails/received', headers: { authorization: `Bearer ${impersonationToken}` } })).statusCode).toBe(401);

  // Cron: the right secret, a wrong one, and the secret as a query parameter.
  expect((await app.inject({ method: 'POST', url: '/api/cron/process-emails', headers: { authorization: `Bearer ${SECRETS.CRON_SECRET}` } })).statusCode).toBe(200);
  expect((await app.inject({ method: 'GET', url: '/api/cron/process-emails', headers: { authorization: 'Bearer wrong-cron-secret-0123456789' } })).statusCode).toBe(401);
  await app.inject({ method: 'GET', url: `/api/cron/process-emails?secret=${SECRETS.CRON_SECRET}` });

  // Webhooks: a signed event, the same one replayed, a tampered body, a stale timestamp.
  const payload = JSON.stringify({ type: 'email.delivered', created_at: new Date().toISOString(), data: { email_id: 'none', to: 'a@example.test', subject: 'Hi' } });
  const id = `msg_${randomUUID()}`;
  const signature = new Webhook(SECRETS.EMAIL_WEBHOOK_SECRET).sign(id, new Date(), payload);
  secrets['webhookSignature'] = signature.split(',')[1]!;
  const hook = (body: string, at = new Date(), sig = signature) => ({
    method: 'POST' as const,
    url: '/api/webhooks/email/resend',
    payload: body,
    headers: { 'content-type': 'application/json', 'svix-id': id, 'svix-timestamp': String(Math.floor(at.getTime() / 1000)), 'svix-signature': sig },
  });
  expect((await app.inject(hook(payload))).statusCode).toBe(200);
  expect((await app.inject(hook(payload))).statusCode).toBe(200);
  expect((await app.inject(hook(payload.replace('delivered', 'opened')))).statusCode).toBe(401);
  const stale = new Date(Date.now() - 3_600_000);
  expect((await app.inject(hook(payload, stale, new Webhook(SECRETS.EMAIL_WEBHOOK_SECRET).sign(id, stale, payload)))).statusCode).toBe(401);

  // Unsubscribe: a genuine token opened (GET) and applied (POST), a tampered one.
  const token = createUnsubscribeTokens(SECRETS.JWT_SECRET).sign({ userId: user.userId, email: user.email, category: 'marketing', version: 0 });
  secrets['unsubscribeToken'] = token;
  secrets['unsubscribeMac'] = token.split('.')[1]!;
  await app.inject({ method: 'GET', url: `/api/email/unsubscribe?token=${token}` });
  await app.inject({ method: 'POST', url: `/api/email/unsubscribe?token=${encodeURIComponent(token)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
  await app.inject({ method: 'GET', url: `/api/email/unsubscribe?token=${token}x` });

  // Tampered and foreign Bearer tokens.
  const [h, p] = secrets['userToken'].split('.');
  await app.inject({ method: 'GET', url: '/api/user/emails/received', headers: { authorization: `Bearer ${h}.${p}.forged-signature-forged-signature` } });
  await app.inject({ method: 'GET', url: `/api/user/emails/received?access_token=${secrets['adminToken']}` });

  const text = logs.text();
  expect(logs.lines.length).toBeGreaterThan(15);
  expect(text).toContain('/api/webhooks/email/resend');
  expect(text).toContain('token=[redacted]');
  const leaked = Object.entries(secrets).flatMap(([name, value]) => {
    const forms = [value, encodeURIComponent(value)];
    if (value.split('.').length === 3) forms.push(value.split('.')[2]!);
    return forms.some((f) => f.length >= 8 && text.includes(f)) ? [name] : [];
  });
  expect(leaked).toEqual([]);
});
