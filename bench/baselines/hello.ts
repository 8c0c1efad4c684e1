// Baseline: the cheapest Fastify answer on this machine, run in its own process so it does not share
// an event loop with the load generator. Port from BENCH_PORT; prints nothing but errors.
import Fastify from 'fastify';

const port = Number(process.env['BENCH_PORT']);
if (!Number.isInteger(port) || port <= 0) {
  process.stderr.write('hello baseline: BENCH_PORT must be a port number\n');
  process.exit(1);
}

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));

app.listen({ host: '127.0.0.1', port }).catch((err: unknown) => {
  process.stderr.write(`hello baseline failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

// The bench stops us with SIGTERM: close cleanly so the port is released at once.
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
