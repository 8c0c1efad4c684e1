// Transcriptions take turns for the inference threads: never more at once than there are threads, served
// in order of arrival, and a caller that gives up leaves the line.
import { createTurns } from './turns';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('turns', () => {
  it('runs at most `slots` pieces of work at once, in order of arrival', async () => {
    const turns = createTurns(2, () => new Error('cancelled'));
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const releases: (() => void)[] = [];
    const jobs = [0, 1, 2, 3, 4].map((n) =>
      turns.run(async () => {
        running++;
        most = Math.max(most, running);
        order.push(n);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
        return n;
      }),
    );
    await tick();
    expect(order).toEqual([0, 1]);
    expect(turns.waiting).toBe(3);
    while (releases.length) {
      releases.shift()!();
      await tick();
      await tick();
    }
    expect(await Promise.all(jobs)).toEqual([0, 1, 2, 3, 4]);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
  });

  it('frees the slot when the work fails', async () => {
    const turns = createTurns(1, () => new Error('cancelled'));
    await expect(turns.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(turns.run(async () => 'next')).resolves.toBe('next');
  });

  it('a waiting caller whose signal fires leaves the line without running', async () => {
    const turns = createTurns(1, () => new Error('cancelled'));
    let release!: () => void;
    const first = turns.run(() => new Promise<void>((resolve) => (release = resolve)));
    const controller = new AbortController();
    let ran = false;
    const second = turns.run(async () => void (ran = true), controller.signal);
    await tick();
    controller.abort();
    await expect(second).rejects.toThrow('cancelled');
    expect(turns.waiting).toBe(0);
    release();
    await first;
    expect(ran).toBe(false);
    await expect(turns.run(async () => 'after')).resolves.toBe('after');
  });
});
