import { kindForStatus, ProviderError } from './provider-error';

it.each([
  [400, 'rejected_input', false],
  [401, 'auth', false],
  [413, 'rejected_input', false],
  [429, 'quota', true],
  [500, 'unavailable', true],
  [503, 'unavailable', true],
  [504, 'timeout', true],
])('status %i is %s (retryable: %s)', (status, kind, retryable) => {
  expect(kindForStatus(status)).toBe(kind);
  expect(new ProviderError(kindForStatus(status), 'x', 'm', { status }).retryable).toBe(retryable);
});
