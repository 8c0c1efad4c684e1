// Book exports through the real app: the job, its preflight stored on the row, the PDF read back by MuPDF
// (an independent reader), the print geometry of CONTRACTS §11, the tier allowance and every refusal.
import { createObjectStorage } from '@story/providers';
import { artefactDir } from '@story/testing';
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';
import { newFamily, newStory, readPdf, setTier, waitForExport } from '../../test/stories-books-factories';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const ART = artefactDir('book-export');
const storage = () => createObjectStorage(t.config.storage, { publicBaseUrl: 'http://127.0.0.1' });

async function makeBook(owner: SignedUp, chapters: { title: string; content: string }[], extra: Record<string, unknown> = {}) {
  const ids: string[] = [];
  for (const c of chapters) ids.push((await newStory(t.database.sql, owner.userId, c)).id);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/books',
    headers: owner.headers,
    payload: { title: 'The Miller Family', subtitle: 'Stories from the farm', author_name: 'Rose Miller', trim_size: '5.5x8.5', selectedStories: ids, ...extra },
  });
  expect(res.statusCode).toBe(201);
  return { bookId: res.json().book.id as string, storyIds: ids };
}

const exportBook = (who: SignedUp, bookId: string, kind: 'interior' | 'cover', paper?: 'white' | 'cream') =>
  t.app.inject({ method: 'POST', url: `/api/books/${bookId}/export`, headers: who.headers, payload: paper ? { kind, paper } : { kind } });

async function download(who: SignedUp, bookId: string, jobId: string) {
  const res = await t.app.inject({ method: 'GET', url: `/api/books/${bookId}/exports/${jobId}/download`, headers: who.headers });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  return res.rawPayload;
}

const paragraphs = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `<p>${prefix} paragraph ${i + 1}: the harvest came in late that year and everyone helped bring it home before the rain.</p>`).join('');

describe('interior PDF', () => {
  it('is a book at trim size: title, copyright, contents with real pages, chapters on right-hand pages, running heads, page numbers, preflight stored', async () => {
    const owner = await signUp(t.app);
    const { bookId, storyIds } = await makeBook(owner, [
      { title: 'Born in the Snow', content: `<p>I was born in <strong>1931</strong> during a <em>blizzard</em>.</p><ul><li>Mother</li><li>Father</li></ul>${paragraphs(30, 'Snow')}` },
      { title: 'The Farm', content: paragraphs(45, 'Farm') },
      { title: 'Wedding Day', content: '<p>We married in June.</p><ol><li>Church</li><li>Dance</li></ol>' },
    ]);
    // Chapter 2 in a sans typeface with its own running head and footer; page numbers on the right.
    await t.app.inject({ method: 'PUT', url: `/api/stories/${storyIds[1]}/typography`, headers: owner.headers, payload: { fontFamily: 'Arial', fontSize: 12, lineHeight: 1.8 } });
    await t.app.inject({ method: 'PUT', url: `/api/stories/${storyIds[1]}/header-footer`, headers: owner.headers, payload: { headerText: 'Life on the Farm', footerText: 'Miller family archive', pageNumberPosition: 'right' } });

    const queued = await exportBook(owner, bookId, 'interior');
    expect(queued.statusCode).toBe(202);
    expect(queued.json().job).toMatchObject({ bookId, kind: 'interior', status: 'pending', pages: null, downloadUrl: null, paper: 'white', preflight: null });
    const job = await waitForExport(t.app, owner.headers, bookId, queued.json().job.id);
    expect(job).toMatchObject({ status: 'completed', error: null, downloadUrl: `/api/books/${bookId}/exports/${String(job['id'])}/download` });
    // The preflight ran before the job completed, and its report is on the job.
    const preflight = job['preflight'] as Record<string, unknown>;
    expect(preflight).toMatchObject({ passed: true, problems: [], pages: job['pages'], notdefGlyphs: 0, missingCharacters: [], boxes: { consistent: true, trimBox: [0, 0, 396, 612] }, maxPages: 20, gutterInches: 0.375 });
    expect((preflight['fonts'] as { embedded: boolean; subset: boolean; bundled: boolean }[]).every((f) => f.embedded && f.subset && f.bundled)).toBe(true);

    const pdf = await readPdf(await download(owner, bookId, String(job['id'])), { render: [0, 2, 4], artefactDir: ART, name: 'interior-5.5x8.5' });
    expect(pdf.pages).toBe(job['pages']);
    for (const page of pdf.doc.pages) {
      // 5.5 x 8.5 inches: MediaBox = TrimBox = BleedBox, and nothing drawn outside it.
      expect(page.mediaBox).toEqual([0, 0, 396, 612]);
      expect(page.trimBox).toEqual([0, 0, 396, 612]);
      expect(page.bleedBox).toEqual([0, 0, 396, 612]);
      if (page.ink) expect(page.ink[0] >= 0 && page.ink[1] >= 0 && page.ink[2] <= 396 && page.ink[3] <= 612).toBe(true);
    }
    expect(pdf.info['Title']).toBe('The Miller Family');
    expect(pdf.info['Author']).toBe('Rose Miller');

    const [titlePage, copyright, tocPage] = pdf.pageTexts;
    expect(titlePage).toContain('The Miller Family');
    expect(titlePage).toContain('Stories from the farm');
    expect(titlePage).toContain('Rose Miller');
    expect(copyright).toMatch(/Copyright © \d{4} Rose Miller\. All rights reserved\./);
    expect(tocPage).toContain('Contents');
    // Each contents line names the page where that chapter really starts, always a right-hand (odd) page.
    const titles = ['Born in the Snow', 'The Farm', 'Wedding Day'];
    const starts: number[] = [];
    for (const [i, title] of titles.entries()) {
      const m = new RegExp(`${i + 1}\\.\\s*${title}[ .]*\\s(\\d+)`).exec(tocPage!);
      expect(m).not.toBeNull();
      const page = Number(m![1]);
      starts.push(page);
      expect(page % 2).toBe(1);
      expect(pdf.pageTexts[page - 1]).toContain(`Chapter ${i + 1}`);
      expect(pdf.pageTexts[page - 1]).toContain(title);
    }
    expect(starts[0]).toBe(5);
    expect(pdf.pageTexts[starts[0]! - 1]).toMatch(/I was born in 1931 during a blizzard\./);
    expect(pdf.pageTexts[starts[0]! - 1]).toMatch(/• Mother/);
    expect(pdf.pageTexts[starts[2]! - 1]).toMatch(/1\. Church/);
    // Running heads: chapter 2's own text and footer on its later pages; none on an opening page.
    expect(pdf.pageTexts[starts[1]!]).toContain('Life on the Farm');
    expect(pdf.pageTexts[starts[1]!]).toContain('Miller family archive');
    expect(pdf.pageTexts[starts[1]! - 1]).not.toContain('Life on the Farm');
    // Chapter 1's second page is a left-hand page: the book title heads it.
    expect(pdf.pageTexts[starts[0]!]).toContain('The Miller Family');
    // Page numbers: from the contents on, every page that is not blank carries its own; the title page none.
    for (let p = 3; p <= pdf.pages; p++) if (pdf.doc.pages[p - 1]!.ink) expect(pdf.pageTexts[p - 1]).toMatch(new RegExp(`(^|\\s)${p}(\\s|$)`));
    expect(titlePage).not.toMatch(/(^|\s)1(\s|$)/);

    const [row] = await t.database.sql`select status, storage_key, size_bytes, item_count, preflight, started_at is not null as started, completed_at is not null as completed from export_jobs where id = ${String(job['id'])}`;
    expect(row).toMatchObject({ status: 'completed', item_count: pdf.pages, started: true, completed: true, preflight: expect.objectContaining({ passed: true }) });
    const head = await storage().head(String(row!['storage_key']));
    expect(head).toEqual(expect.objectContaining({ exists: true, size: Number(row!['size_bytes']) }));
  });
});

describe('cover PDF', () => {
  it('is one spread (back, spine, front) with bleed, a TrimBox and BleedBox, and a spine as thick as the interior on the paper asked', async () => {
    const owner = await signUp(t.app);
    await setTier(t.database.sql, owner.userId, 'family');
    // About 100 interior pages: spine text appears from 80.
    const { bookId } = await makeBook(owner, Array.from({ length: 6 }, (_, i) => ({ title: `Part ${i + 1}`, content: paragraphs(240, `P${i}`) })), { trim_size: '6x9', cover_template_id: 'heritage-gold' });
    const interior = await waitForExport(t.app, owner.headers, bookId, (await exportBook(owner, bookId, 'interior')).json().job.id);
    expect(interior['status']).toBe('completed');
    const pages = Number(interior['pages']);
    expect(pages).toBeGreaterThanOrEqual(80);

    for (const paper of ['white', 'cream'] as const) {
      const queued = await exportBook(owner, bookId, 'cover', paper);
      expect(queued.statusCode).toBe(202);
      const job = await waitForExport(t.app, owner.headers, bookId, queued.json().job.id);
      expect(job).toMatchObject({ status: 'completed', pages: 1, paper });
      const spine = pages * (paper === 'white' ? 0.002252 : 0.0025);
      const geometry = (job['preflight'] as { geometry: Record<string, unknown> }).geometry;
      expect(geometry).toMatchObject({ trimSize: '6x9', interiorPages: pages, paper, spineText: true, bleedInches: 0.125 });
      expect(Number(geometry['spineWidthInches'])).toBeCloseTo(spine, 9);
      const pdf = await readPdf(await download(owner, bookId, String(job['id'])), { render: [0], artefactDir: ART, name: `cover-6x9-${paper}` });
      const [page] = pdf.doc.pages;
      const width = 2 * 432 + spine * 72;
      const expectClose = (box: number[], want: number[]) => box.forEach((v, i) => expect(v).toBeCloseTo(want[i]!, 2));
      expectClose(page!.trimBox, [9, 9, 9 + width, 9 + 648]);
      expectClose(page!.bleedBox, [0, 0, width + 18, 666]);
      expectClose(page!.mediaBox, [0, 0, width + 18, 666]);
      expect(pdf.text).toContain('The Miller Family');
      expect(pdf.text).toContain('Stories from the farm');
      expect(pdf.text).toContain('Rose Miller');
      // Letters stay inside the trim; some stand on the spine.
      expect(page!.textInk![0]).toBeGreaterThan(9);
      expect(page!.textInk![2]).toBeLessThan(9 + width);
      expect(page!.glyphs.some((g) => g.x > 9 + 432 && g.x < 9 + 432 + spine * 72)).toBe(true);
    }
    const listed = await t.app.inject({ method: 'GET', url: `/api/books/${bookId}/exports`, headers: owner.headers });
    expect(listed.json().jobs).toHaveLength(3);
  });

  it('refuses an unknown paper (400 naming it)', async () => {
    const owner = await signUp(t.app);
    const { bookId } = await makeBook(owner, [{ title: 'One', content: '<p>Text.</p>' }]);
    const res = await t.app.inject({ method: 'POST', url: `/api/books/${bookId}/export`, headers: owner.headers, payload: { kind: 'cover', paper: 'glossy' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('paper');
  });
});

describe('every script, through the API', () => {
  it('prints names in many scripts with real glyphs, and the Arabic name keeps its place in an English sentence', async () => {
    const owner = await signUp(t.app);
    const names = ['Zażółć gęślą jaźń', 'Καλημέρα', 'Nguyễn Thị Minh Khai', '王秀英', '陳國華', '김민준', 'राम प्रसाद', 'שרה כהן'];
    const { bookId, storyIds } = await makeBook(
      owner,
      [{ title: 'Łódź, 1931', content: `<p>Grandmother سلمى الحسيني was born in Łódź.</p><ul>${names.map((n) => `<li>${n}</li>`).join('')}</ul>` }],
      { title: 'Rodzina 王秀英', subtitle: 'Zażółć gęślą jaźń', author_name: 'Nguyễn Thị Minh Khai', trim_size: '6x9' },
    );
    await t.app.inject({ method: 'PUT', url: `/api/stories/${storyIds[0]}/header-footer`, headers: owner.headers, payload: { headerText: 'Καλημέρα 王秀英', footerText: 'Łódź' } });
    const job = await waitForExport(t.app, owner.headers, bookId, (await exportBook(owner, bookId, 'interior')).json().job.id);
    expect(job).toMatchObject({ status: 'completed' });
    const pdf = await readPdf(await download(owner, bookId, String(job['id'])), { render: [4], artefactDir: ART, name: 'scripts' });
    expect(pdf.info['Title']).toBe('Rodzina 王秀英');
    expect(pdf.info['Author']).toBe('Nguyễn Thị Minh Khai');
    for (const name of names.filter((n) => n !== 'שרה כהן')) expect(pdf.text).toContain(`• ${name}`);
    // Hebrew reads right to left: its words come out in visual order.
    expect(pdf.text).toContain('כהן שרה');
    const opening = pdf.doc.pages.find((p) => p.text.includes('Grandmother'))!;
    expect(opening.glyphs.filter((g) => g.gid === 0)).toEqual([]);
    const line = opening.lines.find((l) => l.text.startsWith('Grandmother'))!;
    expect(line.text).toContain('Grandmother الحسيني سلمى was born in Łódź.');
  });
});

describe('tier book pages allowance', () => {
  it('fails a free-tier interior over 20 pages with an error naming the limit, keeps the preflight, stores nothing; the family tier renders it', async () => {
    const owner = await signUp(t.app);
    const long = paragraphs(200, 'Long');
    const { bookId } = await makeBook(owner, [
      { title: 'Part one', content: long },
      { title: 'Part two', content: long },
      { title: 'Part three', content: long },
    ]);
    const queued = await exportBook(owner, bookId, 'interior');
    expect(queued.statusCode).toBe(202);
    const failed = await waitForExport(t.app, owner.headers, bookId, queued.json().job.id);
    expect(failed['status']).toBe('failed');
    expect(String(failed['error'])).toMatch(/^The interior has \d+ pages\. Your free plan allows 20 book pages\. The (starter|family) plan allows/);
    expect(failed['preflight']).toMatchObject({ passed: false, maxPages: 20, boxes: { consistent: true } });
    expect(failed['downloadUrl']).toBeNull();
    expect((await storage().list(`exports/books/${bookId}`)).objects).toEqual([]);
    const refused = await t.app.inject({ method: 'GET', url: `/api/books/${bookId}/exports/${String(failed['id'])}/download`, headers: owner.headers });
    expect(refused.statusCode).toBe(409);

    await setTier(t.database.sql, owner.userId, 'family');
    const again = await exportBook(owner, bookId, 'interior');
    const done = await waitForExport(t.app, owner.headers, bookId, again.json().job.id);
    expect(done['status']).toBe('completed');
    expect(Number(done['pages'])).toBeGreaterThan(20);
    expect(done['preflight']).toMatchObject({ passed: true, maxPages: null });
  });

  it('refuses at once a free-tier book whose chapters alone exceed 20 pages (403 naming the limit), queuing nothing', async () => {
    const owner = await signUp(t.app);
    const { bookId } = await makeBook(
      owner,
      Array.from({ length: 19 }, (_, i) => ({ title: `Chapter ${i + 1}`, content: '<p>Short.</p>' })),
    );
    const res = await exportBook(owner, bookId, 'interior');
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toContain('20 book pages');
    expect(await t.database.sql`select 1 from export_jobs where book_id = ${bookId}`).toHaveLength(0);
  });
});

describe('bad input', () => {
  it('refuses an empty book (400) for interior and cover, and an unknown kind, queuing nothing', async () => {
    const owner = await signUp(t.app);
    const { bookId } = await makeBook(owner, []);
    for (const kind of ['interior', 'cover'] as const) {
      const empty = await exportBook(owner, bookId, kind);
      expect(empty.statusCode).toBe(400);
      expect(empty.json().error).toContain('no chapters');
    }
    const bad = await t.app.inject({ method: 'POST', url: `/api/books/${bookId}/export`, headers: owner.headers, payload: { kind: 'epub' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('kind');
    expect(await t.database.sql`select 1 from export_jobs where book_id = ${bookId}`).toHaveLength(0);
  });

  it('refuses an unknown trim size when the book is made or changed (400 naming trim_size)', async () => {
    const owner = await signUp(t.app);
    const made = await t.app.inject({ method: 'POST', url: '/api/books', headers: owner.headers, payload: { title: 'X', author_name: 'Y', trim_size: '9x12', selectedStories: [] } });
    expect(made.statusCode).toBe(400);
    expect(JSON.stringify(made.json())).toContain('trim_size');
  });

  it('refuses a 2,000-page book at once (422 naming the print limit), queuing nothing', async () => {
    const owner = await signUp(t.app);
    await setTier(t.database.sql, owner.userId, 'family');
    // 70 stories of 50,000 characters (the story limit): about 2,000 pages at 6x9.
    const huge = `<p>${'The harvest came in late that year and everyone helped bring it home. '.repeat(700).slice(0, 49_990)}</p>`;
    const { bookId } = await makeBook(owner, Array.from({ length: 70 }, (_, i) => ({ title: `Year ${1931 + i}`, content: huge })), { trim_size: '6x9' });
    for (const kind of ['interior', 'cover'] as const) {
      const res = await exportBook(owner, bookId, kind);
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toMatch(/^This book would have at least \d+ pages; a printed book may have at most 828\./);
    }
    expect(await t.database.sql`select 1 from export_jobs where book_id = ${bookId}`).toHaveLength(0);
  });

  it('fails the job of a story in a script no bundled font covers, naming each character, storing no PDF', async () => {
    const owner = await signUp(t.app);
    const { bookId } = await makeBook(owner, [{ title: 'ยาย', content: '<p>Grandmother said สวัสดี every morning.</p>' }]);
    for (const kind of ['interior', 'cover'] as const) {
      const job = await waitForExport(t.app, owner.headers, bookId, (await exportBook(owner, bookId, kind)).json().job.id);
      expect(job['status']).toBe('failed');
      expect(String(job['error'])).toContain('U+0E22 THAI CHARACTER YO YAK (“ย”)');
      expect(String(job['error'])).toContain('U+0E2A THAI CHARACTER SO SUA (“ส”)');
      expect(job['preflight']).toMatchObject({ passed: false, pages: 0 });
      expect((job['preflight'] as { missingCharacters: { codePoint: string }[] }).missingCharacters.map((m) => m.codePoint)).toContain('U+0E22');
    }
    expect((await storage().list(`exports/books/${bookId}`)).objects).toEqual([]);
  });
});

describe('who may export and download', () => {
  it('lets the owner export, family read and download, and refuses a viewer export (403) and a stranger everything (404)', async () => {
    const [owner, viewer, stranger] = await Promise.all([signUp(t.app), signUp(t.app), signUp(t.app)]);
    await newFamily(t.database.sql, owner.userId, [{ userId: viewer.userId, role: 'family_viewer' }]);
    // No subtitle and no keywords: the PDF's document info must do without them.
    const { bookId } = await makeBook(owner, [{ title: 'Only', content: '<p>Words.</p>' }], { subtitle: null });
    const interior = await waitForExport(t.app, owner.headers, bookId, (await exportBook(owner, bookId, 'interior')).json().job.id);
    // Title, copyright, contents, a blank left page, the chapter.
    expect(interior).toMatchObject({ status: 'completed', pages: 5 });
    const interiorPdf = await readPdf(await download(viewer, bookId, String(interior['id'])));
    expect(interiorPdf.info['Title']).toBe('The Miller Family');
    expect(interiorPdf.pageTexts[0]).not.toContain('Stories from the farm');
    expect((await exportBook(viewer, bookId, 'cover')).statusCode).toBe(403);
    expect((await exportBook(stranger, bookId, 'cover')).statusCode).toBe(404);
    const job = await waitForExport(t.app, owner.headers, bookId, (await exportBook(owner, bookId, 'cover')).json().job.id);
    expect(job['status']).toBe('completed');
    expect((await readPdf(await download(viewer, bookId, String(job['id'])))).pages).toBe(1);
    for (const url of [`/api/books/${bookId}/exports/${String(job['id'])}`, `/api/books/${bookId}/exports/${String(job['id'])}/download`, `/api/books/${bookId}/exports`]) {
      const res = await t.app.inject({ method: 'GET', url, headers: stranger.headers });
      expect(res.statusCode).toBe(404);
    }
    expect(await t.database.sql`select 1 from export_jobs where book_id = ${bookId}`).toHaveLength(2);
  });
});
