// Spec 001's operational thresholds as warnings in the log: a backlog (more than 100 pending for over 5
// minutes) and a pending email older than an hour, read from the real queue table.
import { createAnalyticsRepository } from '../features/analytics/analytics.repository';
import { readQueueHealth } from '../features/analytics/queue-health';
import { buildTestApp, type TestContext } from '../test/helper';
import { createQueueAlerts } from './queue-alerts';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

it('warns when the backlog and stuck thresholds are crossed, repeats while they last, and says when they end', async () => {
  const lines: { level: string; msg: string; obj: Record<string, unknown> }[] = [];
  let clock = 0;
  const alerts = createQueueAlerts({
    read: () => readQueueHealth(createAnalyticsRepository(t.database.db)),
    log: { warn: (obj, msg) => void lines.push({ level: 'warn', msg, obj: obj as Record<string, unknown> }), info: (obj, msg) => void lines.push({ level: 'info', msg, obj: obj as Record<string, unknown> }) },
    repeatMs: 15 * 60_000,
    now: () => clock,
  });
  const sql = t.database.sql;
  // 100 overdue rows are not a backlog yet ("more than 100").
  await sql`insert into email_send_queue (to_email, subject, html_content, status, scheduled_for)
    select 'q' || g || '@example.test', 's', 'h', 'pending', now() - interval '10 minutes' from generate_series(1, 100) g`;
  // Due in the future: not counted.
  await sql`insert into email_send_queue (to_email, subject, html_content, status, scheduled_for) values ('later@example.test', 's', 'h', 'pending', now() + interval '1 day')`;
  await alerts.check();
  expect(lines).toEqual([]);

  await sql`insert into email_send_queue (to_email, subject, html_content, status, scheduled_for) values ('old@example.test', 's', 'h', 'pending', now() - interval '2 hours')`;
  await alerts.check();
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({
    level: 'warn',
    msg: 'email queue: backlog: 101 emails have been pending for over 5 minutes (alert above 100); stuck: 1 pending email is older than 60 minutes',
    obj: { pending: 102, overdue: 101, stuck: 1, oldestPendingSince: expect.any(String) },
  });
  // No address in the log line.
  expect(JSON.stringify(lines[0])).not.toContain('@example.test');

  clock += 60_000;
  await alerts.check();
  expect(lines).toHaveLength(1);
  clock += 15 * 60_000;
  await alerts.check();
  expect(lines).toHaveLength(2);

  await sql`delete from email_send_queue where scheduled_for < now()`;
  await alerts.check();
  expect(lines[2]).toMatchObject({ level: 'info', msg: 'email queue: back within the thresholds' });
  await alerts.check();
  expect(lines).toHaveLength(3);
});
