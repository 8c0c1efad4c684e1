// drizzle-kit reads the whole schema and writes SQL migrations that are committed (npm run db:generate).
export default {
  dialect: 'postgresql',
  schema: './libs/db/src/schema/index.ts',
  out: './libs/db/migrations',
};
