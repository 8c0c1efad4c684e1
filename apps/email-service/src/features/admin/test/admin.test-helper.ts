// Test helpers of the admin API: accounts of any role (verified or not) with a live session and token.
import { createTokenSigner } from '@story/auth';
import { one } from '@story/db';
import type { TestContext } from '../../../test/helper';

export interface TestAccount {
  userId: string;
  email: string;
  headers: { authorization: string };
}

export async function accountWithSession(t: TestContext, opts: { role?: 'user' | 'support' | 'admin'; verified?: boolean; fullName?: string; tier?: string } = {}): Promise<TestAccount> {
  const role = opts.role ?? 'user';
  const email = `${role}.${Math.random().toString(36).slice(2)}@example.test`;
  const verified = opts.verified !== false;
  const account = one(await t.database.sql`insert into accounts (email, role, email_confirmed_at) values (${email}, ${role}, case when ${verified}::boolean then now() end) returning id`);
  const userId = account['id'] as string;
  await t.database.sql`insert into profiles (id, full_name, subscription_tier) values (${userId}, ${opts.fullName ?? null}, ${opts.tier ?? 'free'})`;
  const session = one(await t.database.sql`insert into auth_sessions (user_id, expires_at) values (${userId}, now() + interval '1 day') returning id`);
  const { token } = await createTokenSigner(t.config.secrets.jwtSecret).sign({ userId, email, role, sessionId: session['id'] as string });
  return { userId, email, headers: { authorization: `Bearer ${token}` } };
}

export async function auditRows(t: TestContext, action?: string) {
  return action
    ? t.database.sql`select * from admin_audit_log where action = ${action} order by created_at, id`
    : t.database.sql`select * from admin_audit_log order by created_at, id`;
}
