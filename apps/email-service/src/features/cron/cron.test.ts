// GET/POST /api/cron/process-emails: the spec's exact bodies, the Bearer CRON_SECRET guard, one batch per call.
import { buildPipelineApp, enqueue, type PipelineContext } from '../../workers/test/pipeline-harness';

let t: PipelineContext;
beforeAll(async () => {
  t = await buildPipelineApp();
});
afterAll(async () => t.close());

const URL = '/api/cron/process-emails';

it('refuses a missing or wrong secret with exactly 401 {error: "Unauthorized"}', async () => {
  for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: t.config.secrets.cronSecret! }]) {
    for (const method of ['GET', 'POST'] as const) {
      const res = await t.app.inject({ method, url: URL, headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Unauthorized' });
    }
  }
});

it('processes one batch on GET and POST and reports the counts', async () => {
  await enqueue(t, { to: 'cron1@example.test', category: 'transactional' });
  await enqueue(t, { to: 'cron2@example.test', category: 'transactional' });
  const headers = { authorization: `Bearer ${t.config.secrets.cronSecret}` };
  const first = await t.app.inject({ method: 'POST', url: URL, headers });
  expect(first.statusCode).toBe(200);
  expect(first.json()).toEqual({ success: true, message: 'Processed 2 emails: 2 sent, 0 failed' });
  expect(t.smtp.received).toHaveLength(2);
  const second = await t.app.inject({ method: 'GET', url: URL, headers });
  expect(second.json()).toEqual({ success: true, message: 'Processed 0 emails: 0 sent, 0 failed' });
});

it('answers 500 {error: "Processing failed"} when the batch cannot run', async () => {
  const spy = jest.spyOn(t.app.emailQueueWorker, 'processBatch').mockRejectedValueOnce(new Error('db down'));
  const res = await t.app.inject({ method: 'GET', url: URL, headers: { authorization: `Bearer ${t.config.secrets.cronSecret}` } });
  spy.mockRestore();
  expect(res.statusCode).toBe(500);
  expect(res.json()).toEqual({ error: 'Processing failed' });
});
