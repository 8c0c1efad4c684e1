// Values a hostile or broken client sends: wrong types, huge and empty strings, unicode edge cases, NUL
// bytes, deep nesting, path traversal, SQL and HTML metacharacters, numbers past every limit.
import fc from 'fast-check';

const deep = (depth: number): unknown => (depth === 0 ? 'bottom' : { a: deep(depth - 1) });

export const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'lone \udc00 surrogate',
  '\u202eright-to-left override',
  'e\u0301\u0301\u0301 combining',
  '🦄👨‍👩‍👧‍👦',
  'x'.repeat(100_000),
  '🦄'.repeat(20_000),
  "' OR '1'='1' --",
  '1; DROP TABLE accounts; --',
  '$1',
  '%s%s%s%n',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '=HYPERLINK("http://evil.example","x")',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '/dev/zero',
  'file:///etc/passwd',
  'http://169.254.169.254/latest/meta-data/',
  '${7*7}{{7*7}}',
  '__proto__',
  'constructor',
  'null',
  'NaN',
  '-1',
  '1e309',
  '9'.repeat(400),
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '\r\nX-Injected: 1',
];

const HOSTILE_NUMBERS = [0, -1, -0, 1.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, -(2 ** 63), 1e308, Number.MIN_VALUE];

/** Any JSON value a field should not hold. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.constantFrom(...HOSTILE_NUMBERS),
  fc.constantFrom(true, false, null, [], {}, [[[]]], { $gt: '' }, JSON.parse('{"__proto__": {"admin": true}}') as unknown),
  fc.constant(deep(60)),
  fc.constant(Array.from({ length: 20_000 }, (_, i) => i)),
  fc.string({ maxLength: 50 }),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** A path segment or query value a client should not send, as it would be typed into a URL. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s.length < 1000)),
  fc.constantFrom('0', '-1', '1.5', 'true', '[]', '%', '%zz', '%00', '..', '.', '~', 'a'.repeat(5000)),
  fc.string({ maxLength: 30 }),
);
