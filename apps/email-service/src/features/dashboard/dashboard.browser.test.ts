/// <reference lib="dom" />
// The admin application in a real browser (puppeteer-core + the Chromium npm install brings): sign-in, every
// page without a console error or CSP violation and with nothing loaded from outside, a feature-flag edit
// and an email-template edit round trip with their live previews, support without controls, a user-role
// account refused, a form without its CSRF token refused, keyboard use, and a phone-sized screen.
// Screenshots of the main pages go to test-artifacts/dashboard/ (gitignored) for a person to look at.
import type { Browser, Page } from 'puppeteer-core';
import { freePort } from '@story/testing';
import { buildTestApp, type TestContext } from '../../test/helper';
import { launchBrowser, screenshot, watchedPage, type Watched } from './test/browser.test-helper';
import { passwordAccount, PASSWORD, type PasswordAccount } from './test/dashboard.test-helper';

jest.setTimeout(120_000);

let t: TestContext;
let browser: Browser;
let base: string;
let admin: PasswordAccount;
let support: PasswordAccount;
let user: PasswordAccount;
let templateId: string;

const PAGES: [string, string][] = [
  ['/dashboard', 'overview'],
  ['/dashboard/users', 'users'],
  ['/dashboard/feature-flags', 'feature-flags'],
  ['/dashboard/ai-management', 'ai-management'],
  ['/dashboard/ai-providers', 'ai-providers'],
  ['/dashboard/email', 'email-templates'],
  ['/dashboard/email/ab-test', 'ab-tests'],
  ['/dashboard/analytics', 'analytics'],
  ['/dashboard/content', 'content'],
  ['/dashboard/editor', 'editor'],
  ['/dashboard/conversation-testing', 'conversation-testing'],
  ['/dashboard/conversations', 'conversations'],
  ['/dashboard/tools', 'tools'],
  ['/dashboard/tools/book-blurb/queue', 'blurb-queue'],
  ['/dashboard/billing', 'billing'],
  ['/dashboard/waitlist', 'waitlist'],
  ['/dashboard/voice-settings', 'voice-settings'],
  ['/dashboard/user-support', 'user-support'],
  ['/dashboard/support', 'support-audit'],
  ['/dashboard/resources', 'resources'],
  ['/dashboard/settings', 'settings'],
  ['/dashboard/system', 'system'],
];

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '1000' });
  const port = await freePort();
  await t.app.listen({ port, host: '127.0.0.1' });
  base = `http://127.0.0.1:${port}`;
  admin = await passwordAccount(t, 'admin');
  support = await passwordAccount(t, 'support');
  user = await passwordAccount(t, 'user', { fullName: 'Ruth Example' });
  const sql = t.database.sql;
  // Enough data that every page draws something: accounts over the last weeks, stories, flags, a template, a queue.
  await sql`insert into accounts (email, created_at) select 'pop' || i || '@example.test', now() - (i % 30) * interval '1 day' from generate_series(1, 200) i`;
  await sql`insert into campaigns (user_id, title, storyteller_name, relationship, created_at) select ${user.userId}, 'Campaign ' || i, 'Gran', 'grandparent', now() - i * interval '1 day' from generate_series(1, 12) i`;
  await sql`insert into stories (user_id, title, word_count, created_at) select ${user.userId}, 'Story ' || i, 300 + i, (now() at time zone 'UTC') - (i % 20) * interval '1 day' from generate_series(1, 40) i`;
  await sql`insert into feature_flags (key, description, enabled, rollout_percentage) values ('new_editor', 'The new story editor', true, 20)`;
  const [tpl] = await sql`insert into email_templates (name, display_name, subject_template, html_template, text_template, available_variables, default_variables, required_variables)
    values ('memory_digest', 'Memory digest', 'A new story for {{name}}', '<h1 style="color:#1f5fbf">Hello {{name}}</h1><p>Your storyteller is waiting.</p>', 'Hello {{name}}', '{"name": "first name"}', '{"name": "friend"}', '{name}') returning id`;
  templateId = tpl!['id'] as string;
  await sql`insert into email_template_versions (template_id, version, name, category, subject_template, html_template, text_template, required_variables, is_active)
    values (${templateId}, 1, 'memory_digest', 'transactional', 'A new story for {{name}}', '<h1 style="color:#1f5fbf">Hello {{name}}</h1><p>Your storyteller is waiting.</p>', 'Hello {{name}}', '{name}', true)`;
  await sql`insert into blurb_queue (book_title, author, blurb) values ('The Sea House', 'Ruth', 'A childhood by the sea, told in her own words.')`;
  await sql`insert into support_flags (user_id, content_type, content_id, reason) values (${user.userId}, 'story', gen_random_uuid(), 'spam')`;
  await sql`insert into email_send_queue (to_email, subject, html_content, status, sent_at, created_at) select 'r' || i || '@example.test', 'Hello', 'h', 'sent', now() - (i % 7) * interval '1 day', now() - (i % 7) * interval '1 day' from generate_series(1, 30) i`;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function signIn(page: Page, account: { email: string }, password = PASSWORD): Promise<void> {
  await page.goto(`${base}/dashboard`);
  await page.type('#f-email', account.email);
  await page.type('#f-password', password);
  await Promise.all([page.waitForNavigation(), page.click('form[action="/dashboard/sign-in"] button[type="submit"]')]);
}

const text = (page: Page, selector: string) => page.$eval(selector, (el) => el.textContent ?? '');

describe('an admin', () => {
  let w: Watched;
  beforeAll(async () => {
    w = await watchedPage(browser);
    await w.page.goto(`${base}/dashboard`);
    await screenshot(w.page, 'sign-in');
    await signIn(w.page, admin);
    expect(w.problems.splice(0)).toEqual([]);
  });
  afterEach(() => {
    expect(w.problems.splice(0)).toEqual([]);
  });

  it('lands on the overview after signing in', async () => {
    expect(new URL(w.page.url()).pathname).toBe('/dashboard');
    expect(await text(w.page, 'h1')).toBe('Overview');
    expect(await w.page.$$('svg[role="img"]')).toHaveLength(2);
  });

  it.each(PAGES)('%s renders without a console error, CSP violation or outside request', async (url, name) => {
    const res = await w.page.goto(`${base}${url}`);
    expect(res?.status()).toBe(200);
    // The stylesheet applied (a rule of dashboard.css), and the script ran (it marks <html>).
    expect(await w.page.$eval('main', (el) => getComputedStyle(el).paddingTop)).not.toBe('0px');
    expect(await w.page.$eval('html', (el) => el.classList.contains('js'))).toBe(true);
    await screenshot(w.page, name);
  });

  it('edits a feature flag: the preview follows the form, the save round-trips', async () => {
    await w.page.goto(`${base}/dashboard/feature-flags/new_editor`);
    const before = await text(w.page, '[data-preview="reached"]');
    const input = await w.page.$('#f-rolloutpercentage');
    await input!.click({ clickCount: 3 });
    await input!.type('90');
    await w.page.waitForFunction((old) => document.querySelector('[data-preview="reached"]')?.textContent !== old, {}, before);
    const reached = Number((await text(w.page, '[data-preview="reached"]')).replace(/,/g, ''));
    expect(reached).toBeGreaterThan(Number(before.replace(/,/g, '')));
    await w.page.type('#f-overrides', `${user.email} off support case`);
    await screenshot(w.page, 'feature-flag-edit');
    await Promise.all([w.page.waitForNavigation(), w.page.click('form[data-flag-preview] button:not([formaction])')]);
    expect(await text(w.page, '.flash')).toBe('Feature flag saved.');
    const [row] = await t.database.sql`select f.rollout_percentage, (select count(*)::int from feature_flag_overrides o where o.flag_id = f.id) as overrides from feature_flags f where key = 'new_editor'`;
    expect(row).toEqual({ rollout_percentage: 90, overrides: 1 });
    expect(await w.page.$eval('#f-rolloutpercentage', (el) => (el as HTMLInputElement).value)).toBe('90');
  });

  it('edits an email template: the render follows the edits, the save makes a version, history diffs and rolls back', async () => {
    // The frame's document is sandboxed (no script may run in it, not even the test's): its answers are read instead.
    const initial = w.page.waitForResponse((r) => r.url().endsWith(`/email/templates/${templateId}/preview`));
    await w.page.goto(`${base}/dashboard/email/templates/${templateId}`);
    expect(await (await initial).text()).toContain('Hello friend');
    const subject = await w.page.$('#f-subject-template');
    await subject!.click({ clickCount: 3 });
    await subject!.type('Your storyteller answered, {{name}}');
    await w.page.$eval('#f-var-name', (el) => ((el as HTMLInputElement).value = ''));
    // The script posts the form into the frame as it changes (nothing saved yet).
    const rendered = w.page.waitForResponse(async (r) => r.url().endsWith('/email/templates/preview') && r.request().method() === 'POST' && (await r.text()).includes('Your storyteller answered, Ada'));
    await w.page.type('#f-var-name', 'Ada');
    const answer = await rendered;
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-security-policy']).toContain('sandbox');
    expect(await answer.text()).toContain('Hello Ada');
    await w.page.waitForNetworkIdle({ idleTime: 500 });
    expect((await t.database.sql`select current_version from email_templates where id = ${templateId}`)[0]!['current_version']).toBe(1);
    await screenshot(w.page, 'email-template-edit');
    await Promise.all([w.page.waitForNavigation(), w.page.click('form[data-live-preview] button:not([formaction])')]);
    expect(await text(w.page, '.flash')).toContain('Template saved');
    expect((await t.database.sql`select current_version, subject_template from email_templates where id = ${templateId}`)[0]).toEqual({ current_version: 2, subject_template: 'Your storyteller answered, {{name}}' });

    await w.page.goto(`${base}/dashboard/email/templates/${templateId}/history`);
    expect(await w.page.$$('tr.diff-add')).not.toHaveLength(0);
    await screenshot(w.page, 'email-template-history');
    w.page.once('dialog', (d) => void d.accept());
    await Promise.all([w.page.waitForNavigation(), w.page.click('form[action$="/rollback"] button')]);
    expect(await text(w.page, '.flash')).toContain('rolled back');
    expect((await t.database.sql`select current_version, subject_template from email_templates where id = ${templateId}`)[0]).toEqual({ current_version: 3, subject_template: 'A new story for {{name}}' });
  });

  it('starts an impersonation with a reason: the countdown runs and the end button ends it', async () => {
    await w.page.goto(`${base}/dashboard/users/${user.userId}`);
    await w.page.type('#f-reason', 'The user asked for help with a chapter');
    await Promise.all([w.page.waitForNavigation(), w.page.click('form[action$="/impersonate"] button')]);
    await w.page.waitForFunction(() => /\d+:\d\d left/.test(document.querySelector('.countdown')?.textContent ?? ''));
    expect(await w.page.$eval('#imp-token', (el) => (el as HTMLTextAreaElement).value)).toMatch(/^ey/);
    await screenshot(w.page, 'impersonation-started');
    await Promise.all([w.page.waitForNavigation(), w.page.click('form[action$="/end"] button')]);
    expect(await text(w.page, '.flash')).toContain('Impersonation ended');
    expect(await w.page.$$eval('table code', (els) => els.map((e) => e.textContent))).toEqual(expect.arrayContaining(['user.impersonate.start', 'user.impersonate.end']));
  });

  it('refuses a form posted without its CSRF token, and nothing changes', async () => {
    await w.page.goto(`${base}/dashboard/feature-flags/new_editor`);
    await w.page.$eval('form[data-flag-preview] input[name="_csrf"]', (el) => el.remove());
    const input = await w.page.$('#f-rolloutpercentage');
    await input!.click({ clickCount: 3 });
    await input!.type('5');
    const [response] = await Promise.all([w.page.waitForNavigation(), w.page.click('form[data-flag-preview] button:not([formaction])')]);
    expect(response?.status()).toBe(403);
    expect(await text(w.page, 'main')).toContain('did not come from this site');
    expect((await t.database.sql`select rollout_percentage from feature_flags where key = 'new_editor'`)[0]!['rollout_percentage']).toBe(90);
    // The 403 page's own form-free content produced no console error besides the failed navigation status.
    w.problems.splice(0, w.problems.length, ...w.problems.filter((p) => !p.includes('403')));
  });

  it('is usable from the keyboard: the skip link comes first and moves focus to <main>', async () => {
    await w.page.goto(`${base}/dashboard/users`);
    await w.page.keyboard.press('Tab');
    expect(await w.page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await w.page.keyboard.press('Enter');
    await w.page.keyboard.press('Tab');
    // After the skip, the next stop is inside <main> (the search field), not the navigation.
    expect(await w.page.evaluate(() => !!document.activeElement?.closest('main'))).toBe(true);
    // Search by typing and Enter.
    await w.page.keyboard.type('Ruth');
    await Promise.all([w.page.waitForNavigation(), w.page.keyboard.press('Enter')]);
    expect(await text(w.page, 'tbody')).toContain(user.email);
  });

  it('fits a phone: no sideways scrolling, the menu folds behind a button that opens it', async () => {
    await w.page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true });
    try {
      for (const [url, name] of [['/dashboard', 'overview-phone'], ['/dashboard/users', 'users-phone'], [`/dashboard/email/templates/${templateId}`, 'email-template-phone']] as const) {
        await w.page.goto(`${base}${url}`);
        const overflow = await w.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect([url, overflow <= 1]).toEqual([url, true]);
        await screenshot(w.page, name);
      }
      expect(await w.page.$eval('#nav', (el) => getComputedStyle(el).display)).toBe('none');
      await w.page.click('.menu-toggle');
      expect(await w.page.$eval('#nav', (el) => getComputedStyle(el).display)).not.toBe('none');
      expect(await w.page.$eval('.menu-toggle', (el) => el.getAttribute('aria-expanded'))).toBe('true');
    } finally {
      await w.page.setViewport({ width: 1280, height: 900 });
    }
  });

  it('signs out: the session ends and the next page asks to sign in', async () => {
    await w.page.goto(`${base}/dashboard/settings`);
    await Promise.all([w.page.waitForNavigation(), w.page.click('main form[action="/dashboard/sign-out"] button')]);
    await w.page.goto(`${base}/dashboard/users`);
    expect(await w.page.$('#f-password')).not.toBeNull();
    w.problems.splice(0, w.problems.length, ...w.problems.filter((p) => !p.includes('401')));
  });
});

describe('support', () => {
  it('sees every page and no control that changes anything', async () => {
    const w = await watchedPage(browser);
    await signIn(w.page, support);
    for (const [url] of PAGES) {
      await w.page.goto(`${base}${url}`);
      const posts = await w.page.$$eval('form[method="post"]', (forms) => forms.map((f) => f.getAttribute('action')));
      expect([url, posts.filter((p) => p !== '/dashboard/sign-out')]).toEqual([url, []]);
    }
    await w.page.goto(`${base}/dashboard/feature-flags/new_editor`);
    expect(await w.page.$('button[type="submit"]:not(.link)')).toBeNull();
    await screenshot(w.page, 'feature-flag-support');
    expect(w.problems).toEqual([]);
  });
});

describe('a user-role account', () => {
  it('is refused at sign-in with a clear message and gets no session', async () => {
    const w = await watchedPage(browser);
    await w.page.goto(`${base}/dashboard`);
    await w.page.type('#f-email', user.email);
    await w.page.type('#f-password', PASSWORD);
    const [response] = await Promise.all([w.page.waitForNavigation(), w.page.click('form[action="/dashboard/sign-in"] button[type="submit"]')]);
    expect(response?.status()).toBe(403);
    expect(await text(w.page, '[role="alert"]')).toContain('needs role admin or support');
    const cookies = await w.page.cookies();
    expect(cookies.map((c) => c.name)).not.toContain('story_admin');
    await screenshot(w.page, 'sign-in-refused');
    expect(w.problems.filter((p) => !p.includes('403'))).toEqual([]);
  });
});
