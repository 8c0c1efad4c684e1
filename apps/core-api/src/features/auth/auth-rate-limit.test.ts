import { buildTestApp, uniqueEmail, type TestContext } from '../../test/helper';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '1' });
});
afterAll(async () => t.close());

it('limits authentication to 5 requests per minute per client with X-RateLimit headers', async () => {
  const statuses: number[] = [];
  let last;
  for (let i = 0; i < 6; i++) {
    last = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: uniqueEmail(), password: 'whatever 1' } });
    statuses.push(last.statusCode);
    if (i === 0) {
      expect(last.headers['x-ratelimit-limit']).toBe('5');
      expect(last.headers['x-ratelimit-remaining']).toBe('4');
      const reset = Number(last.headers['x-ratelimit-reset']);
      expect(reset).toBeGreaterThan(Date.now() / 1000);
      expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
    }
  }
  expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  expect(last!.json().error).toMatch(/Too many requests/);
  expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
});
