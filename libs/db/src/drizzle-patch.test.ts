// drizzle-orm 0.45.4 as patched by patches/drizzle-orm+0.45.4.patch (applied by patch-package on npm install).
//
// Upstream, Drizzle's postgres-js session runs every query unnamed (`prepare: false`), and postgres.js then
// describes a parameterised statement before each execution: Parse/Describe/Sync, wait for the parameter
// types, then Bind/Execute/Sync, two round trips per query. Patched, every statement is named, so
// postgres.js keeps it per connection (as it does for its own tagged templates) and later executions are
// one Bind/Execute round trip. Statements with no parameters still go through the simple protocol.
import { eq } from 'drizzle-orm';
import { accounts, createDbClient } from './index';
import { createTestDatabase, type TestDatabase } from './test/test-database';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t.drop());

it("keeps a parameterised Drizzle query as a prepared statement of its connection, and answers from it", async () => {
  // One connection, so the query and the look into pg_prepared_statements share a session.
  const one = createDbClient(t.url, { max: 1, applicationName: 'drizzle-patch-test' });
  try {
    const [a] = await one.db.insert(accounts).values({ email: 'prepared@example.test' }).returning({ id: accounts.id });
    for (let i = 0; i < 3; i++) {
      const rows = await one.db.select({ email: accounts.email }).from(accounts).where(eq(accounts.id, a!.id));
      expect(rows).toEqual([{ email: 'prepared@example.test' }]);
    }
    const prepared = await one.sql<{ statement: string; calls: number }[]>`
      select statement, (generic_plans + custom_plans)::int as calls from pg_prepared_statements
       where statement like 'select "email" from "accounts"%'`;
    expect(prepared).toHaveLength(1);
    // Parsed once, executed three times: the statement was reused, not parsed again per call.
    expect(prepared[0]!.calls).toBe(3);
  } finally {
    await one.close();
  }
});
