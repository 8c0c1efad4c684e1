import net from 'node:net';
import postgres from 'postgres';
import { createTestDatabase, freePort, testEnv } from './index';

it('clones a fresh migrated database per call and drops it', async () => {
  const a = await createTestDatabase();
  const b = await createTestDatabase();
  try {
    expect(a.name).not.toBe(b.name);
    await a.sql`insert into accounts (email) values ('only-in-a@example.test')`;
    expect(await b.sql`select 1 from accounts where email = 'only-in-a@example.test'`).toHaveLength(0);
    const [migrations] = await a.sql`select count(*)::int as n from drizzle.__drizzle_migrations`;
    expect(migrations!['n']).toBeGreaterThan(0);
  } finally {
    await a.drop();
    await b.drop();
  }
  const admin = postgres(process.env['STORY_TEST_ADMIN_URL']!, { max: 1 });
  try {
    expect(await admin`select 1 from pg_database where datname in (${a.name}, ${b.name})`).toHaveLength(0);
  } finally {
    await admin.end();
  }
});

it('finds a port that can be bound', async () => {
  const port = await freePort();
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  server.close();
});

it('gives a complete test environment with overrides', () => {
  const env = testEnv({ RATE_LIMIT_SCALE: '1' });
  expect(env['JWT_SECRET']!.length).toBeGreaterThanOrEqual(32);
  expect(env['RATE_LIMIT_SCALE']).toBe('1');
});
