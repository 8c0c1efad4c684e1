// Flags of `npm run bench`: `--all` runs every bench and writes bench/results/summary.md; `--size <factor>`
// scales the data sizes (1 = the full sizes the targets are set at, 0.1 = a tenth; `--small` is 0.1). Bad
// input stops with one clear line, before anything starts.
import postgres from 'postgres';

export interface BenchArgs {
  all: boolean;
  size: number;
}

const USAGE = 'usage: npm run bench [-- --all] [--size <factor> | --small]';

export class BenchUsageError extends Error {}

export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const args: BenchArgs = { all: false, size: 1 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (flag === '--all') args.all = true;
    else if (flag === '--small') args.size = 0.1;
    else if (flag === '--size') {
      const raw = inline ?? argv[++i];
      const size = Number(raw);
      if (raw === undefined || raw === '' || !Number.isFinite(size) || size <= 0 || size > 10) {
        throw new BenchUsageError(`bench: --size must be a number above 0 and at most 10 (a factor of the full data sizes), got "${raw ?? ''}"`);
      }
      args.size = size;
    } else if (flag === '--help' || flag === '-h') throw new BenchUsageError(USAGE);
    else throw new BenchUsageError(`bench: unknown flag "${arg}" (${USAGE})`);
  }
  return args;
}

/** Fails with one line when BENCH_DATABASE_URL / DATABASE_URL names a server that does not answer. */
export async function checkDatabaseReachable(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const given = env['BENCH_DATABASE_URL'] || env['DATABASE_URL'];
  if (!given) return; // an embedded server is started for the run
  let where = 'the given URL';
  try {
    const u = new URL(given);
    where = `${u.hostname}:${u.port || 5432}`;
  } catch {
    throw new BenchUsageError('bench: BENCH_DATABASE_URL is not a URL (expected postgres://user@host:port/db)');
  }
  const sql = postgres(given, { max: 1, connect_timeout: 5, onnotice: () => undefined });
  try {
    await sql`select 1`;
  } catch (err) {
    const reason = (err as { code?: string }).code ?? (err instanceof Error ? err.message : String(err));
    throw new BenchUsageError(`bench: cannot reach the database at ${where} (${reason}); start it, or unset BENCH_DATABASE_URL and DATABASE_URL to use an embedded server`);
  } finally {
    await sql.end({ timeout: 1 }).catch(() => undefined);
  }
}
