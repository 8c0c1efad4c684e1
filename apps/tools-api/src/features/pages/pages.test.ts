// Public pages: SEO metadata, JSON-LD, noindex for unlisted items, escaping of every user string, the
// embeddable variant's framing headers, the CSS page-flip viewer, and 404 pages.
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
