// The sign-in shared by core-api and the admin application (CONTRACTS §2): the password check, the lockout
// of five failures in 15 minutes (unknown emails counted like known ones), the role decided at sign-in, and
// the session row every service's check reads.
import { createTestDatabase, type TestDatabase } from '@story/testing';
import { hashPassword } from './passwords';
import { createPasswordSignin, revokeSession } from './password-signin';
import { createSessionLookup } from './sessions';

let db: TestDatabase;
const locked: string[] = [];
const roles = { adminEmails: ['boss@example.test'], supportEmails: [] };

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db.drop());

async function account(email: string, verified = true) {
  const [row] = await db.sql<{ id: string }[]>`insert into accounts (email, password_hash, email_confirmed_at)
    values (${email}, ${await hashPassword('right-password-1')}, case when ${verified}::boolean then now() end) returning id`;
  return row!.id;
}

const signin = () => createPasswordSignin({ db: db.db, roles, onLockout: (email) => locked.push(email) });

it('returns the account with the role it holds now (listed and verified: admin), and writes nothing until markSignedIn', async () => {
  const id = await account('boss@example.test');
  const checked = await signin().check('boss@example.test', 'right-password-1');
  expect(checked).toEqual({ id, email: 'boss@example.test', role: 'admin', emailVerified: true });
  expect((await db.sql`select role, last_sign_in_at from accounts where id = ${id}`)[0]).toEqual({ role: 'user', last_sign_in_at: null });
  await db.db.transaction(async (tx) => {
    await signin().markSignedIn(checked, tx);
    const sessionId = await signin().openSession({ userId: id, ip: '203.0.113.7', userAgent: 'test', expiresAt: new Date(Date.now() + 3_600_000) }, tx);
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });
  const [row] = await db.sql`select a.role, a.last_sign_in_at, s.ip_prefix, s.id from accounts a join auth_sessions s on s.user_id = a.id where a.id = ${id}`;
  expect(row).toMatchObject({ role: 'admin', ip_prefix: '203.0.113.0' });
  expect(row!['last_sign_in_at']).not.toBeNull();
  // The session row is what every service checks; revoking it ends it.
  const lookup = createSessionLookup(db.sql);
  expect(await lookup.findActive(row!['id'])).toMatchObject({ userId: id, role: 'admin' });
  await revokeSession(row!['id'], 'signout', db.db);
  expect(await lookup.findActive(row!['id'])).toBeNull();
});

it('refuses a wrong password and an unknown email alike (401), counting both; the fifth failure locks the email (429), even for the right password', async () => {
  await account('victim@example.test');
  await expect(signin().check('nobody@example.test', 'x')).rejects.toMatchObject({ kind: 'unauthorized' });
  expect((await db.sql`select failed_count from auth_lockouts where email = 'nobody@example.test'`)[0]?.['failed_count']).toBe(1);
  for (let i = 0; i < 4; i++) await expect(signin().check('victim@example.test', 'wrong-password-1')).rejects.toMatchObject({ kind: 'unauthorized' });
  expect(locked).toEqual([]);
  await expect(signin().check('victim@example.test', 'wrong-password-1')).rejects.toMatchObject({ kind: 'unauthorized' });
  expect(locked).toEqual(['victim@example.test']);
  await expect(signin().check('victim@example.test', 'right-password-1')).rejects.toMatchObject({ kind: 'rate_limited', retryAfter: 900 });
});

it('gives an unverified listed account no role, and never lets an account without a password in', async () => {
  await db.sql`update accounts set email_confirmed_at = null where email = 'boss@example.test'`;
  expect((await signin().check('boss@example.test', 'right-password-1')).role).toBe('user');
  await db.sql`insert into accounts (email) values ('social@example.test')`;
  await expect(signin().check('social@example.test', '')).rejects.toMatchObject({ kind: 'unauthorized' });
});
