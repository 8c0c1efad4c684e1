import { createObjectStorage } from '@story/providers';
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';
import { newFamily, newStory, readPdf, setTier, waitForExport } from '../../test/stories-books-factories';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

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

async function exportBook(who: SignedUp, bookId: string, kind: 'interior' | 'cover') {
  const res = await t.app.inject({ method: 'POST', url: `/api/books/${bookId}/export`, headers: who.headers, payload: { kind } });
  return res;
}

async function download(who: SignedUp, bookId: string, jobId: string) {
  const res = await t.app.inject({ method: 'GET', url: `/api/books/${bookId}/exports/${jobId}/download`, headers: who.headers });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  return res.rawPayload;
}

const paragraphs = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `<p>${prefix} paragraph ${i + 1}: the harvest came in late that year and everyone helped bring it home before the rain.</p>`).join('');

describe('interior PDF', () => {
  it('renders title page, contents with the real page numbers, chapters in their typography, running header and page numbers, at trim size', async () => {
    const owner = await signUp(t.app);
    const { bookId, storyIds } = await makeBook(owner, [
      { title: 'Born in the Snow', content: `<p>I was born in <strong>1931</strong> during a <em>blizzard</em>.</p><ul><li>Mother</li><li>Father</li></ul>${paragraphs(30, 'Snow')}` },
      { title: 'The Farm', content: paragraphs(45, 'Farm') },
      { title: 'Wedding Day', content: '<p>We married in June.</p><ol><li>Church</li><li>Dance</li></ol>' },
    ]);
    // Chapter 2 in Helvetica with its own running header; every page numbered on the right.
    await t.app.inject({ method: 'PUT', url: `/api/stories/${storyIds[1]}/typography`, headers: owner.headers, payload: { fontFamily: 'Arial', fontSize: 12, lineHeight: 1.8 } });
    await t.app.inject({ method: 'PUT', url: `/api/stories/${storyIds[1]}/header-footer`, headers: owner.headers, payload: { headerText: 'Life on the Farm', footerText: 'Miller family archive', pageNumberPosition: 'right' } });

    const queued = await exportBook(owner, bookId, 'interior');
    expect(queued.statusCode).toBe(202);
    expect(queued.json().job).toMatchObject({ bookId, kind: 'interior', status: 'pending', pages: null, downloadUrl: null });
    const job = await waitForExport(t.app, owner.headers, bookId, queued.json().job.id);
    expect(job).toMatchObject({ status: 'completed', error: null, downloadUrl: `/api/books/${bookId}/exports/${String(job['id'])}/download` });

    const pdf = await readPdf(await download(owner, bookId, String(job['id'])));
    expect(pdf.pages).toBe(job['pages']);
    expect(pdf.pages).toBeGreaterThan(5);
    // 5.5 x 8.5 inches in points.
    expect([Math.round(pdf.width), Math.round(pdf.height)]).toEqual([396, 612]);
    expect(pdf.info['Title']).toBe('The Miller Family');
    expect(pdf.info['Author']).toBe('Rose Miller');

    const [titlePage, tocPage] = pdf.pageTexts;
    expect(titlePage).toContain('The Miller Family');
    expect(titlePage).toContain('Stories from the farm');
    expect(titlePage).toContain('Rose Miller');
    expect(tocPage).toContain('Contents');
    // Each contents line names the page where that chapter really starts.
    const titles = ['Born in the Snow', 'The Farm', 'Wedding Day'];
    const starts: number[] = [];
    for (const [i, title] of titles.entries()) {
      const m = new RegExp(`${i + 1}\\. ${title}\\s+(\\d+)`).exec(tocPage!);
      expect(m).not.toBeNull();
      const page = Number(m![1]);
      starts.push(page);
      expect(pdf.pageTexts[page - 1]).toContain(`Chapter ${i + 1}`);
      expect(pdf.pageTexts[page - 1]).toContain(title);
    }
    expect(starts[0]).toBe(3);
    expect(starts[1]!).toBeGreaterThan(starts[0]! + 1);
    // Content: inline styles and lists come through as text.
    expect(pdf.pageTexts[starts[0]! - 1]).toMatch(/I was born in 1931 during a blizzard\./);
    expect(pdf.pageTexts[starts[0]! - 1]).toMatch(/• Mother/);
    expect(pdf.pageTexts[starts[2]! - 1]).toMatch(/1\. Church/);
    // Running header: chapter 2's own text on its non-opening pages; the default (book or chapter title) elsewhere.
    expect(pdf.pageTexts[starts[1]!]).toContain('Life on the Farm');
    expect(pdf.pageTexts[starts[1]!]).toContain('Miller family archive');
    expect(pdf.pageTexts[starts[1]! - 1]).not.toContain('Life on the Farm');
    const snowSecond = pdf.pageTexts[starts[0]!]!;
    expect(snowSecond.includes('The Miller Family') || snowSecond.includes('Born in the Snow')).toBe(true);
    // Page numbers: each page from the contents on carries its own number; the title page none.
    for (let p = 2; p <= pdf.pages; p++) expect(pdf.pageTexts[p - 1]).toMatch(new RegExp(`(^|\\s)${p}(\\s|$)`));
    expect(titlePage).not.toMatch(/(^|\s)1(\s|$)/);

    const [row] = await t.database.sql`select status, storage_key, size_bytes, item_count, started_at is not null as started, completed_at is not null as completed from export_jobs where id = ${String(job['id'])}`;
    expect(row).toMatchObject({ status: 'completed', item_count: pdf.pages, started: true, completed: true });
    const head = await storage().head(String(row!['storage_key']));
    expect(head).toEqual(expect.objectContaining({ exists: true, size: Number(row!['size_bytes']) }));
  });

  it('renders a cover: one page at trim size with title, subtitle and author', async () => {
    const owner = await signUp(t.app);
    const { bookId } = await makeBook(owner, [{ title: 'One', content: '<p>Text.</p>' }], { trim_size: '6x9', cover_template_id: 'heritage-gold' });
    const queued = await exportBook(owner, bookId, 'cover');
    expect(queued.statusCode).toBe(202);
    const job = await waitForExport(t.app, owner.headers, bookId, queued.json().job.id);
    expect(job).toMatchObject({ status: 'completed', pages: 1 });
    const pdf = await readPdf(await download(owner, bookId, String(job['id'])));
    expect(pdf.pages).toBe(1);
    expect([Math.round(pdf.width), Math.round(pdf.height)]).toEqual([432, 648]);
    expect(pdf.text).toContain('The Miller Family');
    expect(pdf.text).toContain('Stories from the farm');
    expect(pdf.text).toContain('Rose Miller');
    const listed = await t.app.inject({ method: 'GET', url: `/api/books/${bookId}/exports`, headers: owner.headers });
    expect(listed.json().jobs.map((j: { id: string }) => j.id)).toEqual([job['id']]);
  });
});

describe('Unicode text', () => {
  const names = ['Zażółć gęślą jaźń', 'Łódź', 'Καλημέρα', 'Nguyễn Thị Minh Khai', '王秀英'];

  // Paragraphs mixing Latin and Han, long enough to break pages in the middle of a Han run.
  const han = Array.from({ length: 25 }, (_, i) => `<p>Letter ${i + 1}: 王秀英写信给她的孙女，讲述了在罗兹的童年。Łódź was home.</p>`).join('');

  it('prints Polish, Greek, Vietnamese and Chinese names exactly as written, in the interior and on the cover, with subset fonts', async () => {
    const owner = await signUp(t.app);
    const { bookId, storyIds } = await makeBook(
      owner,
      [
        {
          title: 'Łódź, 1931',
          content: `<p>Grandmother ${names[4]} was born in <strong>Łódź</strong>.</p><ul>${names.map((n) => `<li>${n}</li>`).join('')}</ul>${han}`,
        },
        { title: 'Καλημέρα from Nguyễn Thị Minh Khai', content: '<p><em>Zażółć gęślą jaźń</em> and 王秀英 met in Hanoi.</p>' },
      ],
      { title: 'Rodzina 王秀英', subtitle: 'Zażółć gęślą jaźń', author_name: 'Nguyễn Thị Minh Khai' },
    );
    // The first chapter runs over several pages under a Greek and Chinese running header; the second is monospaced.
    await t.app.inject({ method: 'PUT', url: `/api/stories/${storyIds[0]}/header-footer`, headers: owner.headers, payload: { headerText: 'Καλημέρα 王秀英', footerText: 'Łódź' } });
    await t.app.inject({ method: 'PUT', url: `/api/stories/${storyIds[1]}/typography`, headers: owner.headers, payload: { fontFamily: 'Courier', fontSize: 12, lineHeight: 1.5 } });

    const interior = await waitForExport(t.app, owner.headers, bookId, (await exportBook(owner, bookId, 'interior')).json().job.id);
    expect(interior).toMatchObject({ status: 'completed' });
    const bytes = await download(owner, bookId, String(interior['id']));
    const pdf = await readPdf(bytes);
    expect(pdf.info['Title']).toBe('Rodzina 王秀英');
    expect(pdf.info['Author']).toBe('Nguyễn Thị Minh Khai');
    const [titlePage, tocPage] = pdf.pageTexts;
    expect(titlePage).toContain('Rodzina 王秀英');
    expect(titlePage).toContain('Zażółć gęślą jaźń');
    expect(titlePage).toContain('Nguyễn Thị Minh Khai');
    expect(tocPage).toMatch(/1\. Łódź, 1931\s+3/);
    expect(tocPage).toMatch(/2\. Καλημέρα from Nguyễn Thị Minh Khai\s+\d+/);
    expect(pdf.text).toContain('Grandmother 王秀英 was born in Łódź.');
    for (const name of names) expect(pdf.text).toContain(`• ${name}`);
    // The monospaced chapter wraps this line; read across the break.
    const flat = pdf.text.replace(/\s+/g, '');
    expect(flat).toContain('Zażółćgęśląjaźńand王秀英metinHanoi.');
    // Read across page breaks (one falls inside a Han run): without the page markers, running header, footer and number.
    const body = flat.replace(/--\d+of\d+--Καλημέρα王秀英Łódź\d+/g, '');
    for (let i = 1; i <= 25; i++) expect(body).toContain(`Letter${i}:王秀英写信给她的孙女，讲述了在罗兹的童年。Łódźwashome.`);
    // The running header and footer on the chapter's following pages, in their own scripts.
    expect(pdf.pages).toBeGreaterThan(5);
    expect(pdf.pageTexts[3]).toContain('Καλημέρα 王秀英');
    expect(pdf.pageTexts[3]).toContain('Łódź');
    // Only the glyphs used are embedded (the CJK font alone is megabytes whole).
    expect(bytes.length).toBeLessThan(300_000);

    const cover = await waitForExport(t.app, owner.headers, bookId, (await exportBook(owner, bookId, 'cover')).json().job.id);
    const coverPdf = await readPdf(await download(owner, bookId, String(cover['id'])));
    expect(coverPdf.text).toContain('Rodzina 王秀英');
    expect(coverPdf.text).toContain('Zażółć gęślą jaźń');
    expect(coverPdf.text).toContain('Nguyễn Thị Minh Khai');
  });
});

describe('tier book pages allowance', () => {
  it('fails a free-tier interior over 20 pages with an error naming the limit and stores nothing; the family tier renders it', async () => {
    const owner = await signUp(t.app);
    // About 12,000 words: far beyond 20 pages, while 2 + 3 chapters pass the cheap check at the door.
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
    expect(failed['downloadUrl']).toBeNull();
    expect((await storage().list(`exports/books/${bookId}`)).objects).toEqual([]);
    const refused = await t.app.inject({ method: 'GET', url: `/api/books/${bookId}/exports/${String(failed['id'])}/download`, headers: owner.headers });
    expect(refused.statusCode).toBe(409);

    await setTier(t.database.sql, owner.userId, 'family');
    const again = await exportBook(owner, bookId, 'interior');
    const done = await waitForExport(t.app, owner.headers, bookId, again.json().job.id);
    expect(done['status']).toBe('completed');
    expect(Number(done['pages'])).toBeGreaterThan(20);
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

  it('refuses an interior of a book without chapters and an unknown kind', async () => {
    const owner = await signUp(t.app);
    const { bookId } = await makeBook(owner, []);
    const empty = await exportBook(owner, bookId, 'interior');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toContain('no chapters');
    const bad = await t.app.inject({ method: 'POST', url: `/api/books/${bookId}/export`, headers: owner.headers, payload: { kind: 'epub' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('kind');
    expect(await t.database.sql`select 1 from export_jobs where book_id = ${bookId}`).toHaveLength(0);
  });
});

describe('who may export and download', () => {
  it('lets the owner export, family read and download, and refuses a viewer export (403) and a stranger everything (404)', async () => {
    const [owner, viewer, stranger] = await Promise.all([signUp(t.app), signUp(t.app), signUp(t.app)]);
    await newFamily(t.database.sql, owner.userId, [{ userId: viewer.userId, role: 'family_viewer' }]);
    // No subtitle and no keywords: the PDF's document info must do without them.
    const { bookId } = await makeBook(owner, [{ title: 'Only', content: '<p>Words.</p>' }], { subtitle: null });
    const interior = await waitForExport(t.app, owner.headers, bookId, (await exportBook(owner, bookId, 'interior')).json().job.id);
    expect(interior).toMatchObject({ status: 'completed', pages: 3 });
    const interiorPdf = await readPdf(await download(viewer, bookId, String(interior['id'])));
    expect(interiorPdf.info['Title']).toBe('The Miller Family');
    expect(interiorPdf.info['Subject']).toBeUndefined();
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
