// How much each fuzz run tries: FUZZ_RUNS per route (default 60 under `npm run test:fuzz`), FUZZ_SEED to
// replay a run (printed with every result).
export function fuzzBudget(env: NodeJS.ProcessEnv = process.env): { runsPerRoute: number; seed: number } {
  const runsPerRoute = Number(env['FUZZ_RUNS'] ?? 60);
  if (!Number.isInteger(runsPerRoute) || runsPerRoute <= 0) throw new Error(`FUZZ_RUNS="${env['FUZZ_RUNS']}": must be a positive integer`);
  const seed = env['FUZZ_SEED'] !== undefined ? Number(env['FUZZ_SEED']) : Math.floor(Math.random() * 2 ** 31);
  if (!Number.isInteger(seed)) throw new Error(`FUZZ_SEED="${env['FUZZ_SEED']}": must be an integer`);
  return { runsPerRoute, seed };
}
