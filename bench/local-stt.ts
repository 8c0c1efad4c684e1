// `npm run bench:stt`: the local speech recogniser (CONTRACTS §4) on the same audio with Moonshine base and
// tiny in one run, beside ffmpeg's decode alone as the floor. For each: CPU seconds per second of audio
// (this process with its inference thread, plus the ffmpeg processes it ran), wall time, word error rate
// against the known words, the pieces the audio was cut into, model load time and peak memory (each model
// runs in its own child process, so its peak is its own). Also: the event loop's longest stall while a
// transcription runs in the inference thread, next to the stall of one encoder call of a 20 s piece run
// on the calling thread (why inference has a thread of its own). Results in bench/results/local-stt.json.
//
// Audio: the public-domain JFK recording (11 s of human speech) and the family story spoken by eSpeak NG
// (about 3 minutes), both from libs/testing/fixtures/speech. BENCH_STT_RUNS (default 2) timed runs each;
// the figures are the last run's (the first includes the model load).
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { closeSharedProcessSpawner, createLocalSpeechToText, ffmpegPath, mediaFromFile, type MoonshineModel } from '@story/providers';
import { familyStory, JFK_SPEECH, wordErrorRate } from '@story/testing';
import { speak, mediaDir } from '../libs/providers/src/speech-to-text/local/test/speech-media';
import { moonshineFiles } from '../libs/providers/src/speech-to-text/local/model-files';
import { ROOT } from './lib/processes';

const exec = promisify(execFile);
const say = (line: string) => process.stderr.write(`[bench:stt] ${line}\n`);
const TSX_CLI = require.resolve('tsx/cli');
const RESULTS = path.join(ROOT, 'bench', 'results', 'local-stt.json');
const CLOCK_TICKS = 100;

interface Audio {
  name: string;
  file: string;
  text: string;
}

interface ModelRow {
  model: MoonshineModel;
  audio: string;
  audioSeconds: number;
  cpuPerAudioSecond: number;
  wallSeconds: number;
  wordErrorRate: number;
  pieces: number;
  loadMs: number | null;
  peakRssMb: number;
  eventLoopMaxMs: number;
  eventLoopP99Ms: number;
}

/** CPU seconds of this process's waited-for children (fields 16 and 17 of /proc/self/stat: cutime, cstime). */
function childrenCpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS;
}

const ownCpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

/** ffmpeg's decode to 16 kHz mono float alone: the floor under any recogniser. */
function decodeFloor(audio: Audio, seconds: number) {
  const before = childrenCpuSeconds();
  const started = performance.now();
  const out = spawnSync(ffmpegPath(), ['-v', 'error', '-nostdin', '-i', audio.file, '-map', '0:a:0', '-ac', '1', '-ar', '16000', '-f', 'f32le', 'pipe:1'], { maxBuffer: 1 << 30 });
  if (out.status !== 0) throw new Error(`ffmpeg failed on ${audio.file}`);
  return { cpuPerAudioSecond: round((childrenCpuSeconds() - before) / seconds, 4), wallSeconds: round((performance.now() - started) / 1000) };
}

/** The child: one model over every audio, RUNS times each; prints one JSON line. */
async function child(model: MoonshineModel, audios: Audio[], runs: number): Promise<void> {
  const threads = Number(process.env['BENCH_STT_THREADS'] ?? 1);
  const stt = createLocalSpeechToText({ model, threads });
  const rows: ModelRow[] = [];
  // The same monitor over 3 s of doing nothing: what the shared machine alone does to the event loop.
  const idle = monitorEventLoopDelay({ resolution: 5 });
  idle.enable();
  await new Promise((resolve) => setTimeout(resolve, 3000));
  idle.disable();
  for (const audio of audios) {
    let last: ModelRow | undefined;
    for (let run = 0; run < runs; run++) {
      const loop = monitorEventLoopDelay({ resolution: 5 });
      const cpu0 = ownCpuSeconds();
      const kids0 = childrenCpuSeconds();
      const started = performance.now();
      loop.enable();
      const result = await stt.transcribe(mediaFromFile(audio.file, statSync(audio.file).size), { mimeType: 'application/octet-stream' });
      loop.disable();
      const wall = (performance.now() - started) / 1000;
      // The helper that spawned ffmpeg and ffprobe ends here, so their CPU time counts in this run.
      await closeSharedProcessSpawner();
      const cpu = ownCpuSeconds() - cpu0 + (childrenCpuSeconds() - kids0);
      last = {
        model,
        audio: audio.name,
        audioSeconds: round(result.durationSeconds, 2),
        cpuPerAudioSecond: round(cpu / result.durationSeconds, 4),
        wallSeconds: round(wall),
        wordErrorRate: round(wordErrorRate(audio.text, result.text), 4),
        pieces: result.segments?.length ?? 0,
        loadMs: stt.loadMs ?? null,
        peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
        eventLoopMaxMs: round(loop.max / 1e6, 1),
        eventLoopP99Ms: round(loop.percentile(99) / 1e6, 1),
      };
      say(`${model} ${audio.name} run ${run + 1}: ${last.cpuPerAudioSecond} CPU s per audio s, WER ${(last.wordErrorRate * 100).toFixed(1)} %, ${last.pieces} pieces, ${last.wallSeconds} s wall`);
    }
    rows.push(last!);
  }
  await stt.close();

  // One encoder call of a 20 s piece on this thread: how long the event loop would stand still per call.
  const ort = require('onnxruntime-node') as typeof import('onnxruntime-node');
  const files = moonshineFiles(model);
  const encoder = await ort.InferenceSession.create(files.encoder, { intraOpNumThreads: threads });
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const samples = new Float32Array(20 * 16_000).map((_, i) => 0.1 * Math.sin(i / 7));
  await encoder.run({ input_values: new ort.Tensor('float32', samples, [1, samples.length]) });
  await new Promise((resolve) => setTimeout(resolve, 20));
  loop.disable();
  process.stdout.write(`${JSON.stringify({ rows, inThreadEncoderStallMs: round(loop.max / 1e6, 1), idleLoopMaxMs: round(idle.max / 1e6, 1), threads })}\n`);
}

async function main(): Promise<void> {
  const runs = Number(process.env['BENCH_STT_RUNS'] ?? 2);
  const dir = await mediaDir();
  try {
    say('speaking the family story with eSpeak NG (WebAssembly)');
    const story = await speak(familyStory(), dir.file('family-story.mp3'));
    const audios: Audio[] = [
      { name: 'JFK 1961 (human, 11 s)', file: JFK_SPEECH.file, text: JFK_SPEECH.text },
      { name: 'family story (eSpeak NG, 3 min)', file: story, text: familyStory() },
    ];
    const floors = audios.map((audio) => {
      const seconds = Number(spawnSync(ffmpegPath(), ['-i', audio.file], { encoding: 'utf8' }).stderr.match(/Duration: (\d+):(\d+):([\d.]+)/)!.slice(1).reduce((s, v, i) => s + Number(v) * [3600, 60, 1][i]!, 0));
      return { audio: audio.name, seconds, ...decodeFloor(audio, seconds) };
    });
    const results = [];
    for (const model of ['base', 'tiny'] as MoonshineModel[]) {
      say(`model ${model} in its own process`);
      const { stdout } = await exec(process.execPath, [TSX_CLI, '--tsconfig', 'tsconfig.base.json', __filename, '--child', model, JSON.stringify(audios), String(runs)], {
        cwd: ROOT,
        maxBuffer: 16 * 1024 * 1024,
      });
      results.push({ model, ...JSON.parse(stdout.trim().split('\n').at(-1)!) });
    }

    const lines = [
      '| recogniser | audio | audio s | CPU s per audio s | wall s | word error rate | pieces | model load ms | peak RSS MB | event loop p99 / max ms |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...floors.map((f) => `| ffmpeg decode alone (floor) | ${f.audio} | ${round(f.seconds, 1)} | ${f.cpuPerAudioSecond} | ${f.wallSeconds} | | | | | |`),
      ...results.flatMap((r) =>
        (r.rows as ModelRow[]).map((row) => `| Moonshine ${row.model} | ${row.audio} | ${row.audioSeconds} | ${row.cpuPerAudioSecond} | ${row.wallSeconds} | ${(row.wordErrorRate * 100).toFixed(1)} % | ${row.pieces} | ${row.loadMs ?? ''} | ${row.peakRssMb} | ${row.eventLoopP99Ms} / ${row.eventLoopMaxMs} |`),
      ),
    ];
    process.stdout.write(`${lines.join('\n')}\n\n`);
    for (const r of results) {
      process.stdout.write(
        `Moonshine ${r.model}: ${r.threads} onnxruntime thread(s). Event loop max while idle (baseline, same process): ${r.idleLoopMaxMs} ms; one encoder call of a 20 s piece run on the calling thread instead of the inference thread: ${r.inThreadEncoderStallMs} ms\n`,
      );
    }
    const checks = results.flatMap((r) =>
      (r.rows as ModelRow[]).map((row) => ({
        name: `Moonshine ${row.model}, ${row.audio}: word error rate`,
        actual: `${(row.wordErrorRate * 100).toFixed(1)} % at ${row.cpuPerAudioSecond} CPU s per audio s`,
        target: row.model === 'base' ? 'at most 10 %' : 'at most 25 %',
        met: row.wordErrorRate <= (row.model === 'base' ? 0.1 : 0.25),
      })),
    );
    await mkdir(path.dirname(RESULTS), { recursive: true });
    await writeFile(RESULTS, `${JSON.stringify({ at: new Date().toISOString(), runs, floors, results, checks }, null, 2)}\n`);
    say(`results in ${path.relative(ROOT, RESULTS)}`);
  } finally {
    await dir.remove();
  }
}

if (process.argv[2] === '--child') {
  child(process.argv[3] as MoonshineModel, JSON.parse(process.argv[4]!) as Audio[], Number(process.argv[5])).catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
} else {
  main().catch((err: unknown) => {
    process.stderr.write(`bench:stt failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
