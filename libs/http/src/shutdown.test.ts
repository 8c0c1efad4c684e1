// Closing the server lets in-flight requests finish and refuses new ones.
import { createServer } from './index';

it('finishes an in-flight request when the app closes', async () => {
  const app = createServer({ name: 'shutdown', logLevel: 'silent' });
  let closed = false;
  app.addHook('onClose', async () => {
    closed = true;
  });
  let started!: () => void;
  const handlerStarted = new Promise<void>((r) => (started = r));
  app.get('/slow', async () => {
    started();
    await new Promise((r) => setTimeout(r, 400));
    return { finished: true };
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const inFlight = fetch(`${address}/slow`).then(async (r) => ({ status: r.status, body: await r.json() }));
  await handlerStarted;
  const closing = app.close();
  await expect(inFlight).resolves.toEqual({ status: 200, body: { finished: true } });
  await closing;
  expect(closed).toBe(true);
  await expect(fetch(`${address}/slow`)).rejects.toThrow();
});
