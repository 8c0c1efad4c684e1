// Test helpers of the admin application: accounts with a password (as core-api's signup makes them), the
// sign-in a browser does (nonce cookie + CSRF token from the form), and form posts with a session's token.
import { hashPassword } from '@story/auth';
import { one } from '@story/db';
import type { TestContext } from '../../../test/helper';

export const PASSWORD = 'correct-horse-42';

export interface PasswordAccount {
  userId: string;
  email: string;
}

/** An account with a password; role admin/support is granted (granted_role) and the email verified, as roleForAccount needs. */
export async function passwordAccount(t: TestContext, role: 'user' | 'support' | 'admin', opts: { verified?: boolean; fullName?: string } = {}): Promise<PasswordAccount> {
  const email = `${role}.${Math.random().toString(36).slice(2)}@example.test`;
  const verified = opts.verified !== false;
  const hash = await hashPassword(PASSWORD);
  const row = one(
    await t.database.sql`insert into accounts (email, password_hash, role, granted_role, email_confirmed_at)
      values (${email}, ${hash}, ${role}, ${role === 'user' ? null : role}, case when ${verified}::boolean then now() end) returning id`,
  );
  const userId = row['id'] as string;
  await t.database.sql`insert into profiles (id, full_name) values (${userId}, ${opts.fullName ?? null})`;
  return { userId, email };
}

/** `name=value` of a Set-Cookie header list. */
export function cookieValue(setCookie: string | string[] | undefined, name: string): string | undefined {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const found = all.find((c) => c.startsWith(`${name}=`));
  return found ? decodeURIComponent(found.slice(name.length + 1).split(';')[0] ?? '') : undefined;
}

export const setCookies = (headers: Record<string, unknown>): string[] => {
  const v = headers['set-cookie'];
  return Array.isArray(v) ? (v as string[]) : typeof v === 'string' ? [v] : [];
};

export const csrfIn = (page: string): string | undefined => /name="_csrf" value="([^"]+)"/.exec(page)?.[1];

export const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

export const HTML = { accept: 'text/html,application/xhtml+xml' };

type InjectResponse = Awaited<ReturnType<TestContext['app']['inject']>>;

export interface Browser {
  cookie: string;
  csrf: string;
  sessionId: string;
  /** GET a dashboard page as this signed-in browser. */
  get(url: string): Promise<InjectResponse>;
  /** POST a form with this session's CSRF token (pass `_csrf` to override it, or null to leave it out). */
  post(url: string, fields: Record<string, string>, csrf?: string | null): Promise<InjectResponse>;
}

/** Sign in the way a browser does: GET the form (nonce cookie + token), POST it; returns a signed-in browser. */
export async function signIn(t: TestContext, account: { email: string }, password = PASSWORD): Promise<Browser> {
  const formPage = await t.app.inject({ method: 'GET', url: '/dashboard/sign-in', headers: HTML });
  const nonce = setCookies(formPage.headers).find((c) => c.startsWith('story_admin_signin='))?.split(';')[0] ?? '';
  const res = await t.app.inject({
    method: 'POST',
    url: '/dashboard/sign-in',
    headers: { ...HTML, cookie: nonce, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({ email: account.email, password, _csrf: csrfIn(formPage.body) ?? '' }),
  });
  if (res.statusCode !== 303) throw new Error(`sign-in failed: ${res.statusCode} ${res.body.slice(0, 300)}`);
  const token = cookieValue(setCookies(res.headers), 'story_admin');
  if (!token) throw new Error('no session cookie');
  const cookie = `story_admin=${token}`;
  const home = await t.app.inject({ method: 'GET', url: '/dashboard', headers: { ...HTML, cookie } });
  const csrf = csrfIn(home.body);
  if (!csrf) throw new Error('no CSRF token on the overview');
  const sessionId = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')).sid as string;
  return {
    cookie,
    csrf,
    sessionId,
    get: (url) => t.app.inject({ method: 'GET', url, headers: { ...HTML, cookie } }),
    post: (url, fields, override) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { ...HTML, cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: form(override === null ? fields : { _csrf: override ?? csrf, ...fields }),
      }),
  };
}
