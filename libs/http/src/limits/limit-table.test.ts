// The table holds the numbers of the three documents (spec 000, 001, 002 Limits; CONTRACTS §7).
import { LIMITS, limitSpec, scaledMax, toolsDailyLimit, toolsGenerateLimit, toolsResponseLimit } from './limit-table';

const row = (name: string) => {
  const { max, window, key, store } = limitSpec(name as never);
  return { max, window, key, store };
};

it.each([
  // spec 000
  ['core.auth', { max: 5, window: 'minute', key: 'ip', store: 'window' }],
  ['core.stories', { max: 10, window: 'minute', key: 'caller', store: 'window' }],
  ['core.uploads', { max: 20, window: 'hour', key: 'caller', store: 'window' }],
  ['core.invites', { max: 5, window: 'hour', key: 'user', store: 'postgres' }],
  ['core.general', { max: 100, window: 'minute', key: 'caller', store: 'window' }],
  // CONTRACTS §7
  ['core.resend-verification', { max: 3, window: 'hour', key: 'user', store: 'postgres' }],
  // CONTRACTS §10
  ['core.magic-link.ip', { max: 20, window: 'hour', key: 'ip', store: 'window' }],
  ['core.magic-link.email', { max: 5, window: 'hour', key: 'email', store: 'postgres' }],
  // CONTRACTS §10: social sign-in (the project's figure)
  ['core.oauth', { max: 30, window: 'minute', key: 'ip', store: 'window' }],
  // CONTRACTS §9: gifts, per account
  ['core.gifts.purchase', { max: 10, window: 'hour', key: 'caller', store: 'window' }],
  ['core.gifts.retry', { max: 10, window: 'hour', key: 'caller', store: 'window' }],
  ['core.gifts.redeem', { max: 10, window: 'hour', key: 'caller', store: 'window' }],
  // spec 001
  ['email.admin', { max: 100, window: 'minute', key: 'caller', store: 'window' }],
  ['email.user', { max: 60, window: 'minute', key: 'caller', store: 'window' }],
  ['email.webhook', { max: 1000, window: 'minute', key: 'caller', store: 'window' }],
  // spec 002
  ['tools.generate.anonymous', { max: 5, window: 'hour', key: 'session-or-user', store: 'postgres' }],
  ['tools.generate.authenticated', { max: 50, window: 'hour', key: 'session-or-user', store: 'postgres' }],
  ['tools.generate.premium', { max: 500, window: 'hour', key: 'session-or-user', store: 'postgres' }],
  ['tools.responses.anonymous', { max: 5, window: 'day', key: 'session-or-user', store: 'postgres' }],
  ['tools.responses.authenticated', { max: 50, window: 'day', key: 'session-or-user', store: 'postgres' }],
])('%s', (name, expected) => {
  expect(row(name)).toEqual(expected);
});

it('holds the per-tool daily table of spec 002 and the framework default for other tools', () => {
  const daily = (tool: string) => [toolsDailyLimit(tool, 'anonymous').max, toolsDailyLimit(tool, 'authenticated').max, toolsDailyLimit(tool, 'premium').max];
  expect(daily('flashcards')).toEqual([10, 100, 1000]);
  expect(daily('story-prompts')).toEqual([15, 150, 1500]);
  expect(daily('book-blurb')).toEqual([10, 100, 1000]);
  expect(daily('romance-writing-prompts')).toEqual([15, 150, 1500]);
  expect(daily('flipbook')).toEqual([5, 50, 500]);
  expect(daily('plot-twists')).toEqual([10, 100, 1000]);
  expect(daily('constructor')).toEqual([10, 100, 1000]);
  expect(toolsDailyLimit('flashcards', 'anonymous')).toMatchObject({ counter: 'daily', store: 'postgres' });
  expect(toolsGenerateLimit('anonymous').counter).toBe('hourly');
  expect(toolsResponseLimit('premium')).toMatchObject({ max: 500, counter: 'responses' });
});

it('scales every limit by RATE_LIMIT_SCALE (never below 1) except resend-verification', () => {
  expect(scaledMax(limitSpec('core.auth'), 1000)).toBe(5000);
  expect(scaledMax(limitSpec('core.auth'), 0.01)).toBe(1);
  expect(scaledMax(limitSpec('core.resend-verification'), 1000)).toBe(3);
  for (const spec of Object.values(LIMITS)) {
    expect(spec.max).toBeGreaterThan(0);
    expect(spec.store === 'postgres').toBe(spec.counter !== undefined);
  }
  expect(() => limitSpec('tools.nothing')).toThrow('Unknown limit');
});
