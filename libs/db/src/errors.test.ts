// isDatabaseUnavailable: what services answer 503 for (a PostgreSQL outage), and what stays theirs to map.
import { isDatabaseUnavailable } from './errors';

const withCode = (code: string) => Object.assign(new Error('x'), { code });

describe('isDatabaseUnavailable', () => {
  it.each(['ECONNREFUSED', 'ECONNRESET', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT', '08006', '57P01', '57P03'])('is true for %s', (code) => {
    expect(isDatabaseUnavailable(withCode(code))).toBe(true);
  });

  it('looks through drizzle-style causes', () => {
    expect(isDatabaseUnavailable(new Error('Failed query', { cause: withCode('CONNECTION_CLOSED') }))).toBe(true);
  });

  it.each(['23505', '22P02', '40001', '57014', 'ENOENT'])('is false for %s (a request or query problem)', (code) => {
    expect(isDatabaseUnavailable(withCode(code))).toBe(false);
  });

  it('is false for errors without a code', () => {
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
