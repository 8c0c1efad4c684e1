// Event-loop stall while spawning from a large heap: 20 direct spawns vs 20 calls through the process spawner.
// Run: npx tsx --tsconfig tsconfig.base.json bench/spawn/event-loop-stall.ts
import { spawn } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createProcessSpawner } from '../../libs/providers/src/process-spawner';

const TARGET_MB = Number(process.env['HEAP_MB'] ?? 400);
const keep: number[][] = [];
while (process.memoryUsage().rss < TARGET_MB * 1024 * 1024) keep.push(Array.from({ length: 100_000 }, (_, i) => i));

let blocked = 0;
/** Time spent inside the synchronous call (the fork happens there), summed over the run. */
const timed = <T>(f: () => T): T => {
  const t = performance.now();
  const r = f();
  blocked += performance.now() - t;
  return r;
};
const direct = () => new Promise<void>((resolve) => timed(() => spawn('/bin/true', [], { stdio: 'ignore' })).on('close', () => resolve()));
async function measure(label: string, once: () => Promise<unknown>) {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  blocked = 0;
  for (let i = 0; i < 20; i++) await once();
  h.disable();
  console.log(`${label}: max ${(h.max / 1e6).toFixed(1)} ms, mean ${(h.mean / 1e6).toFixed(2)} ms, sync call time ${blocked.toFixed(1)} ms total, rss ${Math.round(process.memoryUsage().rss / 1048576)} MB`);
}
void (async () => {
  const spawner = createProcessSpawner();
  await spawner.run('/bin/true', []); // start the helper (once) outside the measurement
  await measure('direct spawn x20', direct);
  await measure('spawner x20', () => timed(() => spawner.run('/bin/true', [])));
  await spawner.close();
  if (keep.length === 0) console.log('heap not inflated');
})();
