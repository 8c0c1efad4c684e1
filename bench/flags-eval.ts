// Flag evaluation from the in-process cache (target: under 5 µs per call). A store loaded with
// BENCH_FLAGS (default 50) flags, a tenth with A/B variants, a rollout of 37% and 1,000 overrides each,
// evaluated for 100,000 distinct user ids; also evaluateAll (every flag for one user, what core-api's
// GET /api/flags does). Baseline in the same run: one Map lookup plus a string concatenation per call,
// the floor of any keyed cache. No database: the store's source is in memory, so only evaluation is timed.
// Run: npx tsx --tsconfig tsconfig.base.json bench/flags-eval.ts
import { createFlagStore, type FlagRule } from '@story/flags';

const FLAGS = Number(process.env['BENCH_FLAGS'] ?? 50);
const USERS = 100_000;
const ROUNDS = 5;
const TARGET_US = 5;

const uuid = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
const users = Array.from({ length: USERS }, (_, i) => uuid(i));
const rules: FlagRule[] = Array.from({ length: FLAGS }, (_, f) => ({
  key: `flag_${f}`,
  enabled: f % 7 !== 0,
  rolloutPercentage: 37,
  variants: f % 10 === 0 ? [{ name: 'control', weight: 50 }, { name: 'a', weight: 30 }, { name: 'b', weight: 20 }] : null,
  overrides: new Map(Array.from({ length: 1000 }, (_, i) => [uuid(i * 97), i % 2 === 0])),
}));

function timePerCall(calls: number, work: () => void): number {
  const t0 = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - t0) / 1000 / calls;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function main() {
  const store = createFlagStore({ source: { load: async () => rules } });
  await store.evaluate('flag_0', users[0]!);
  const keys = rules.map((r) => r.key);
  const baselineMap = new Map(users.map((u) => [`flag_1:${u}`, true]));
  let sink = 0;

  const base: number[] = [];
  const single: number[] = [];
  const all: number[] = [];
  for (let round = 0; round < ROUNDS + 1; round++) {
    const b = timePerCall(USERS, () => {
      for (let i = 0; i < USERS; i++) if (baselineMap.get(`flag_1:${users[i]}`)) sink++;
    });
    const s = timePerCall(USERS, () => {
      for (let i = 0; i < USERS; i++) if (store.evaluateCached(keys[i % FLAGS]!, users[i]!)) sink++;
    });
    const n = 2000;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) sink += Object.keys(await store.evaluateAll(users[i]!)).length;
    const a = Number(process.hrtime.bigint() - t0) / 1000 / n;
    // Round 0 warms the JIT and is discarded.
    if (round > 0) {
      base.push(b);
      single.push(s);
      all.push(a);
    }
  }
  const [mb, ms, ma] = [median(base), median(single), median(all)];
  const rows = [
    ['case', 'per call', 'vs baseline', `< ${TARGET_US} µs`],
    ['baseline: Map.get of key:user', `${(mb * 1000).toFixed(0)} ns`, '1.00x', ''],
    ['evaluateCached(key, user)', `${(ms * 1000).toFixed(0)} ns`, `${(ms / mb).toFixed(2)}x`, ms < TARGET_US ? 'PASS' : 'MISSED'],
    [`evaluateAll(user), ${FLAGS} flags`, `${ma.toFixed(2)} µs`, `${(ma / mb).toFixed(2)}x`, `${(ma / FLAGS).toFixed(3)} µs per flag`],
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  process.stdout.write(
    `\nflag evaluation bench: ${FLAGS} flags (rollout 37%, 1,000 overrides each, every tenth A/B), ${USERS} users, median of ${ROUNDS} rounds\n\n` +
      [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n') +
      `\n(checksum ${sink})\n`,
  );
}

void main();
