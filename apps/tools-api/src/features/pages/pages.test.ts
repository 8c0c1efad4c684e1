// Public pages: SEO metadata, JSON-LD, noindex for unlisted items, escaping of every user string, the
// embeddable variant's framing headers, the CSS page-flip viewer, and 404 pages.
import { TOOL_ROUTES } from '@story/db';
import { buildTestApp, generate, type TestContext } from '../../test/helper';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp({ PUBLIC_BASE_URL: 'https://tools.example.test' });
});
afterAll(async () => t.close());

const page = (url: string) => t.app.inject({ method: 'GET', url });
const hostile = '<script>alert("x")</script> & "quotes"';

it('renders an item page with SEO metadata, escaped user text and noindex while unlisted', async () => {
  const { data } = await generate(t, 'book-blurb', { bookTitle: hostile, protagonist: '<img src=x onerror=alert(1)>' });
  const res = await page(`/book-blurb/${data.shareCode}/`);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/text\/html/);
  const body = res.body;
  expect(body).not.toContain('<script>alert');
  expect(body).not.toContain('<img src=x');
  expect(body).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
  expect(body).toContain('<meta name="robots" content="noindex, nofollow">');
  expect(body).toContain(`<link rel="canonical" href="https://tools.example.test/book-blurb/${data.shareCode}/">`);
  expect(body).toMatch(/<meta property="og:title" content="[^"<]+">/);
  expect(body).toMatch(/<meta name="description" content="Three literary book blurbs[^"<]+">/);
  const ld = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(body);
  expect(ld).not.toBeNull();
  expect(ld![1]).not.toContain('</script');
  const parsed = JSON.parse(ld![1]!);
  expect(parsed).toMatchObject({ '@type': 'CreativeWork', url: `https://tools.example.test/book-blurb/${data.shareCode}/`, creativeWorkStatus: 'Unlisted' });
  expect(parsed.name).toContain('<script>');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(res.headers['content-security-policy']).not.toContain('script-src');
  const [row] = await t.database.sql`select view_count from tools_book_blurbs where id = ${data.id}`;
  expect(row!['view_count']).toBe(1);
});

it('indexes public items and lists them on the landing and browse pages', async () => {
  const { data } = await generate(t, 'horror-story-prompts', { subgenre: 'folk' });
  await t.database.sql`update tools_horror_story_prompts set is_public = true where id = ${data.id}`;
  const item = await page(`/horror-story-prompts/${data.shareCode}/`);
  expect(item.body).toContain('<meta name="robots" content="index, follow">');
  const landing = await page('/horror-story-prompts/');
  expect(landing.statusCode).toBe(200);
  expect(landing.body).toContain(`/horror-story-prompts/${data.shareCode}/`);
  expect(landing.body).toContain('"@type":"WebApplication"');
  const browse = await page('/horror-story-prompts/browse/');
  expect(browse.body).toContain(`/horror-story-prompts/${data.shareCode}/`);
  expect(browse.body).toContain('"@type":"CollectionPage"');
  expect((await page('/horror-story-prompts')).headers['location']).toBe('/horror-story-prompts/');
});

it('serves a framable embed variant', async () => {
  const { data } = await generate(t, 'first-line-generator', {});
  const res = await page(`/embed/first-line-generator/${data.shareCode}/`);
  expect(res.statusCode).toBe(200);
  expect(res.headers['x-frame-options']).toBeUndefined();
  expect(res.headers['content-security-policy']).toContain('frame-ancestors *');
  expect(res.body).toContain('noindex');
  expect(res.body).toContain('target="_blank"');
});

it('renders flipbooks in a page-flip viewer and flashcards as a table', async () => {
  const { data } = await generate(t, 'flipbook', { title: 'Recipes', text: 'Page one words.\n\nPage two words.', wordsPerPage: 30 });
  const res = await page(`/flipbook/${data.shareCode}/`);
  expect(res.body).toContain('class="flipbook"');
  expect(res.body).toContain('id="fb-1"');
  const cards = await generate(t, 'flashcards', { text: 'Osmosis is the movement of water across a membrane. Diffusion is the spreading of particles.' });
  const deck = await page(`/flashcards/${cards.data.shareCode}/`);
  expect(deck.body).toContain('<td>Osmosis</td>');
});

it('answers 404 pages for unknown tools, codes and expired items', async () => {
  expect((await page('/not-a-tool/')).statusCode).toBe(404);
  const missing = await page('/plot-twists/pt_missing1/');
  expect(missing.statusCode).toBe(404);
  expect(missing.headers['content-type']).toMatch(/text\/html/);
  const { data } = await generate(t, 'plot-twists', { genre: 'noir' });
  await t.database.sql`update tools_plot_twists set expires_at = now() - interval '1 second' where id = ${data.id}`;
  expect((await page(`/plot-twists/${data.shareCode}/`)).statusCode).toBe(404);
});

describe('spec 002 page rules: one main landmark, meta descriptions of 150-160 characters, an embed offer, readable blurbs', () => {
  const description = (html: string) => {
    const m = /<meta name="description" content="([^"]*)">/.exec(html);
    // Entities count as the one character they stand for.
    return (m?.[1] ?? '').replace(/&(amp|lt|gt|quot|#39);/g, 'x');
  };
  const mains = (html: string) => (html.match(/<main[\s>]/g) ?? []).length;

  it('landing and browse pages of every tool: one <main>, a description of 150-160 characters', async () => {
    for (const tool of TOOL_ROUTES) {
      for (const url of [`/${tool}/`, `/${tool}/browse/`, `/${tool}/browse/?page=2`]) {
        const res = await page(url);
        expect(res.statusCode).toBe(200);
        expect(mains(res.body)).toBe(1);
        const length = description(res.body).length;
        expect({ url, ok: length >= 150 && length <= 160 }).toEqual({ url, ok: true });
      }
    }
  });

  it('an item page offers its embed link and code; the embed page and the 404 page have one <main> too', async () => {
    const { data } = await generate(t, 'story-prompts', {});
    const item = await page(`/story-prompts/${data.shareCode}/`);
    expect(mains(item.body)).toBe(1);
    const embedUrl = `https://tools.example.test/embed/story-prompts/${data.shareCode}/`;
    expect(item.body).toContain(`<a href="${embedUrl}" rel="nofollow">embed link</a>`);
    expect(item.body).toContain(`&lt;iframe src=&quot;${embedUrl}&quot;`);
    const embed = await page(`/embed/story-prompts/${data.shareCode}/`);
    expect(embed.statusCode).toBe(200);
    expect(mains(embed.body)).toBe(1);
    expect(embed.body).not.toContain('embed link');
    expect(mains((await page('/story-prompts/nope_nope/')).body)).toBe(1);
  });

  it('a book-blurb page shows each version under its heading with its word count, the recommended one marked, and the scores as a table', async () => {
    const { data } = await generate(t, 'book-blurb', { bookTitle: 'The Salt Road', genre: 'historical' });
    const res = await page(`/book-blurb/${data.shareCode}/`);
    const content = data.content as { versions: { type: string; wordCount: number }[]; performanceAnalysis: { recommended: string } };
    for (const heading of ['Hook focused', 'Character driven', 'Situation based']) expect(res.body).toMatch(new RegExp(`<h2>${heading}( <span class="badge">Recommended</span>)?</h2>`));
    expect((res.body.match(/<span class="badge">Recommended<\/span>/g) ?? []).length).toBe(1);
    for (const v of content.versions) expect(res.body).toContain(`<p class="meta">${v.wordCount} words</p>`);
    expect(res.body).toContain('<table class="scores">');
    expect(res.body).toContain('<h2>Performance analysis</h2>');
    // Not the raw field dump of before.
    expect(res.body).not.toMatch(/<dt>(Versions|Performance Analysis|Word Count|Hook Strength)<\/dt>/);
  });
});
