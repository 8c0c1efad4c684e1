// What a service does with its database at start: find the server (DATABASE_URL, else the embedded
// one that `npm start` runs), apply migrations, and open the pool.
import postgres from 'postgres';
import { createDbClient, type DbClient } from './client';
import { embeddedDatabaseUrl } from './embedded';
import { runMigrations } from './migrate';

export interface DatabaseSettings {
  url?: string;
  embeddedPort: number;
  poolMax: number;
}

export async function openDatabase(settings: DatabaseSettings, applicationName: string): Promise<DbClient> {
  const url = settings.url ?? embeddedDatabaseUrl(settings.embeddedPort);
  try {
    const probe = postgres(url, { max: 1, connect_timeout: 5, onnotice: () => undefined });
    await probe`select 1`.finally(() => probe.end({ timeout: 1 }));
  } catch {
    throw new Error(
      settings.url
        ? 'DATABASE_URL: the database does not answer'
        : `DATABASE_URL is not set and no embedded PostgreSQL answers on port ${settings.embeddedPort}: run \`npm start\` (it starts one) or set DATABASE_URL`,
    );
  }
  await runMigrations(url);
  return createDbClient(url, { max: settings.poolMax, applicationName });
}
