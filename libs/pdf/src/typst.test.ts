// The typesetting child (typst.ts): a separate process, so a 300-page book's memory goes back to the
// system when it ends and a fault in the native compiler ends it, not the service.
import { createTypesetter, TypesetError } from './typst';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return check();
};

const SOURCE = '#set page(width: 100pt, height: 100pt)\n#let d = json(bytes(sys.inputs.data))\n#d.text';

it('typesets in a child process of its own, ended when idle', async () => {
  const ts = createTypesetter({ idleMs: 200 });
  try {
    const { pdf, pages } = await ts.typeset(SOURCE, { text: 'Hello' });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pages).toBe(1);
    const pid = ts.pid!;
    expect(pid).toEqual(expect.any(Number));
    expect(pid).not.toBe(process.pid);
    expect(await until(() => !alive(pid))).toBe(true);
    expect(ts.pid).toBeUndefined();
    // The next document starts a new child.
    expect((await ts.typeset(SOURCE, { text: 'Again' })).pages).toBe(1);
  } finally {
    await ts.close();
  }
});

it('a child that dies fails its document with the reason, and the next document is typeset', async () => {
  const ts = createTypesetter();
  try {
    await ts.typeset(SOURCE, { text: 'warm' });
    const pid = ts.pid!;
    // Two thousand pages: still being laid out when the child is killed.
    const doomed = ts.typeset('#let d = json(bytes(sys.inputs.data))\n#for i in range(2000) [#d.text #pagebreak()]', { text: 'long' });
    process.kill(pid, 'SIGKILL');
    await expect(doomed).rejects.toThrow(/the typesetting process stopped \(SIGKILL\)/);
    expect((await ts.typeset(SOURCE, { text: 'after' })).pages).toBe(1);
    expect(ts.pid).not.toBe(pid);
  } finally {
    await ts.close();
  }
});

it('a template Typst refuses is a TypesetError naming the problem; close() ends the child', async () => {
  const ts = createTypesetter();
  await expect(ts.typeset('#let x = (', {})).rejects.toBeInstanceOf(TypesetError);
  const pid = ts.pid!;
  await ts.close();
  expect(alive(pid)).toBe(false);
});
