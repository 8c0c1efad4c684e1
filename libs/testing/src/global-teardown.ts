// Drop the template (test files drop their own clones) and stop the embedded server.
import { rmSync } from 'node:fs';
import postgres from 'postgres';

export default async function globalTeardown(): Promise<void> {
  const state = globalThis.__STORY_PG__;
  if (!state) return;
  const admin = postgres(state.adminUrl, { max: 1, onnotice: () => undefined });
  try {
    const leftovers = await admin<{ datname: string }[]>`select datname from pg_database where datname like ${`story_t_${state.template.split('_')[2]}_%`}`;
    for (const { datname } of leftovers) await admin`drop database if exists ${admin(datname)} with (force)`;
    await admin`drop database if exists ${admin(state.template)} with (force)`;
  } finally {
    await admin.end({ timeout: 5 });
  }
  if (state.server) await state.server.stop();
  if (state.dir) rmSync(state.dir, { recursive: true, force: true });
}
