// Baseline: Fastify plus one postgres.js primary-key select, i.e. the floor under any route that reads
// the database. Pool size like core-api's default (DB_POOL_MAX=10). Port from BENCH_PORT, database from
// BENCH_DATABASE; prints nothing but errors.
import Fastify from 'fastify';
import postgres from 'postgres';

const port = Number(process.env['BENCH_PORT']);
const url = process.env['BENCH_DATABASE'];
if (!Number.isInteger(port) || port <= 0 || !url) {
  process.stderr.write('pk-select baseline: BENCH_PORT and BENCH_DATABASE are required\n');
  process.exit(1);
}

// Same connection settings as libs/db createDbClient, minus drizzle: the driver alone is the baseline.
const sql = postgres(url, { max: 10, idle_timeout: 30, connect_timeout: 10, onnotice: () => undefined });

const app = Fastify({ logger: false });
app.get<{ Params: { id: string } }>('/accounts/:id', async (req, reply) => {
  const rows = await sql<{ id: string; email: string }[]>`select id, email from accounts where id = ${req.params.id}`;
  // A 404 shows up as non-2xx in the bench, so a wrong id cannot pass for a fast answer.
  return rows[0] ?? reply.status(404).send({ error: 'not found' });
});

app.listen({ host: '127.0.0.1', port }).catch((err: unknown) => {
  process.stderr.write(`pk-select baseline failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => sql.end({ timeout: 5 }))
    .then(() => process.exit(0));
});
