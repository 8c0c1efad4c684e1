import { ProviderError } from '../provider-error';
import { withRetry, withTimeout } from './resilience';

const fast = { retries: 2, baseDelayMs: 1, maxDelayMs: 5 };

it('retries retryable provider errors and returns the first success', async () => {
  let calls = 0;
  const result = await withRetry(async () => {
    calls++;
    if (calls < 3) throw new ProviderError('quota', 'x', 'slow down', { status: 429 });
    return 'ok';
  }, fast);
  expect(result).toBe('ok');
  expect(calls).toBe(3);
});

it('gives up after the policy and throws the last error', async () => {
  let calls = 0;
  const run = withRetry(async () => {
    calls++;
    throw new ProviderError('unavailable', 'x', 'down', { status: 503 });
  }, fast);
  await expect(run).rejects.toMatchObject({ kind: 'unavailable' });
  expect(calls).toBe(3);
});

it('does not retry input, auth or unknown errors', async () => {
  for (const err of [new ProviderError('rejected_input', 'x', 'bad'), new ProviderError('auth', 'x', 'no'), new Error('bug')]) {
    let calls = 0;
    await expect(
      withRetry(async () => {
        calls++;
        throw err;
      }, fast),
    ).rejects.toBe(err);
    expect(calls).toBe(1);
  }
});

it('turns a slow operation into a timeout and aborts its signal', async () => {
  let aborted = false;
  const started = Date.now();
  await expect(
    withTimeout('slowco', 50, (signal) => {
      signal.addEventListener('abort', () => (aborted = true));
      return new Promise((resolve) => setTimeout(resolve, 1000));
    }),
  ).rejects.toMatchObject({ kind: 'timeout', provider: 'slowco' });
  expect(Date.now() - started).toBeLessThan(500);
  expect(aborted).toBe(true);
});
