import { readFileSync } from 'node:fs';
import { createProcessSpawner, type ProcessSpawner } from './process-spawner';

const node = process.execPath;
let spawner: ProcessSpawner;

beforeEach(() => {
  spawner = createProcessSpawner();
});
afterEach(async () => {
  await spawner.close();
});

/** Running (a zombie left for a container's init to reap counts as ended). */
const isAlive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

describe('process spawner', () => {
  it('streams stdout as Buffers and reports the exit code', async () => {
    const chunks: Buffer[] = [];
    const script = 'process.stdout.write(Buffer.from([0,1,2,255])); setTimeout(() => { process.stdout.write("tail"); process.exit(3); }, 20)';
    const result = await spawner.run(node, ['-e', script], { onStdout: (c) => chunks.push(c) });
    expect(result).toEqual({ code: 3, signal: null });
    expect(chunks.every((c) => Buffer.isBuffer(c))).toBe(true);
    const all = Buffer.concat(chunks);
    expect([...all.subarray(0, 4)]).toEqual([0, 1, 2, 255]);
    expect(all.subarray(4).toString()).toBe('tail');
  });

  it('passes large output through whole and in order', async () => {
    let total = 0;
    let sum = 0;
    const script = 'const b = Buffer.alloc(1 << 20); for (let i = 0; i < b.length; i++) b[i] = i % 251; process.stdout.write(b)';
    const { code } = await spawner.run(node, ['-e', script], { onStdout: (c) => { total += c.length; for (const v of c) sum += v; } });
    expect(code).toBe(0);
    expect(total).toBe(1 << 20);
    let expected = 0;
    for (let i = 0; i < 1 << 20; i++) expected += i % 251;
    expect(sum).toBe(expected);
  });

  it('kills the program on timeout', async () => {
    const started = Date.now();
    const result = await spawner.run(node, ['-e', 'setTimeout(() => {}, 60000)'], { timeoutMs: 300 });
    expect(result).toEqual({ code: -1, signal: 'SIGKILL' });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('kills the program on abort', async () => {
    const controller = new AbortController();
    const pending = spawner.run(node, ['-e', 'process.stdout.write("ready"); setTimeout(() => {}, 60000)'], {
      signal: controller.signal,
      onStdout: () => controller.abort(),
    });
    await expect(pending).resolves.toEqual({ code: -1, signal: 'SIGKILL' });
  });

  it('rejects with the spawn error when the program does not exist', async () => {
    await expect(spawner.run('/nonexistent/program-xyz', [])).rejects.toMatchObject({ code: 'ENOENT' });
    // The helper survives a failed spawn.
    await expect(spawner.run(node, ['-e', 'process.exit(0)'])).resolves.toEqual({ code: 0, signal: null });
  });

  it('rejects calls in flight when the helper is killed, and starts a new helper on the next call', async () => {
    const pending = spawner.run(node, ['-e', 'process.stdout.write("x"); setTimeout(() => {}, 60000)'], {
      onStdout: () => process.kill(spawner.pid!, 'SIGKILL'),
    });
    const firstPid = spawner.pid!;
    await expect(pending).rejects.toThrow(/process spawner exited/);
    expect(isAlive(firstPid)).toBe(false);
    const chunks: Buffer[] = [];
    await expect(spawner.run(node, ['-e', 'process.stdout.write("again")'], { onStdout: (c) => chunks.push(c) })).resolves.toEqual({ code: 0, signal: null });
    expect(Buffer.concat(chunks).toString()).toBe('again');
    expect(spawner.pid).toBeDefined();
    expect(spawner.pid).not.toBe(firstPid);
  });

  it('close stops the helper and the program it runs; a later call starts again', async () => {
    let childPid = 0;
    const pending = spawner.run(node, ['-e', 'process.stdout.write(String(process.pid)); setTimeout(() => {}, 60000)'], {
      onStdout: (c) => (childPid = Number(c.toString())),
    });
    while (!childPid) await new Promise((r) => setTimeout(r, 10));
    const helperPid = spawner.pid!;
    await spawner.close();
    await expect(pending).rejects.toThrow(/process spawner/);
    expect(isAlive(helperPid)).toBe(false);
    // The program gets SIGKILL from the helper on disconnect; give the kernel a moment to reap it.
    for (let i = 0; i < 50 && isAlive(childPid); i++) await new Promise((r) => setTimeout(r, 20));
    expect(isAlive(childPid)).toBe(false);
    await expect(spawner.run(node, ['-e', 'process.exit(5)'])).resolves.toEqual({ code: 5, signal: null });
  });
});
