// A real browser for the admin application's tests: puppeteer-core driving the Chromium that npm install
// brings (@sparticuz/chromium: a packed headless Chromium whose binary needs only libc, libexpat and
// libgcc, unpacked to the temp folder on first use). CHROMIUM_PATH points at another Chromium instead
// (e.g. Debian's /usr/bin/chromium). Every page records its console errors (CSP violations among them),
// uncaught exceptions, answers of 400 or more, and any request that leaves 127.0.0.1 (refused: nothing may
// load from the internet).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

/** Screenshots a person can look at after a run: <repo>/test-artifacts/dashboard (gitignored). */
export const ARTIFACTS = path.resolve(__dirname, '../../../../../../test-artifacts/dashboard');

/** The flags of a headless Chromium on a closed network (no background fetches that would be refused). */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-default-apps',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
  '--no-zygote',
  '--font-render-hinting=none',
];

export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env['CHROMIUM_PATH'] || (await chromium.executablePath());
  mkdirSync(ARTIFACTS, { recursive: true });
  return puppeteer.launch({ executablePath, headless: true, args: FLAGS, defaultViewport: { width: 1280, height: 900 } });
}

export interface Watched {
  page: Page;
  /** Console errors, page errors, CSP violations and refused outside requests, in order. */
  problems: string[];
}

/** A page in its own browser context (own cookies) that records everything that goes wrong on it. */
export async function watchedPage(browser: Browser): Promise<Watched> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.request().method()} ${res.url()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err instanceof Error ? err.message : String(err)}`));
  // Chromium reports every CSP violation as a console error ("Refused to apply inline style..."), so they land above.
  await page.setRequestInterception(true);
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.protocol === 'data:' || url.protocol === 'about:' || url.hostname === '127.0.0.1') return void req.continue();
    problems.push(`outside request: ${req.url()}`);
    void req.abort();
  });
  return { page, problems };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}
