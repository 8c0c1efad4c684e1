// eSpeak NG as WebAssembly (the `espeak-ng` npm package), for machines with no espeak-ng binary. The
// package is an ES module built with Emscripten: it cannot write binary audio to stdout, only to its
// virtual file system. So it runs in a child Node process that behaves like the binary: `say` reads the
// text from stdin and writes the WAV to stdout, `run` prints what the CLI prints (--voices, --version).
// A child process (not in-process WASM) keeps the adapter's shape: killable, no event-loop stall, and no
// ES module loaded into CommonJS code or test runners. The WASM build renders the whole WAV before writing
// it (at most 5000 characters, a few MB); ffmpeg's MP3 output still streams to the caller.

/** The runner, passed to `node --input-type=module -e`: argv is [module path, mode, ...espeak arguments]. */
const RUNNER = `
import { pathToFileURL } from 'node:url';
const [modulePath, mode, ...args] = process.argv.slice(1);
const { default: ESpeakNg } = await import(pathToFileURL(modulePath).href);
const toStderr = (line) => process.stderr.write(line + '\\n');
if (mode === 'run') {
  const lines = [];
  await ESpeakNg({ arguments: args, print: (line) => lines.push(line), printErr: toStderr });
  process.stdout.write(lines.join('\\n') + '\\n');
} else {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const text = Buffer.concat(chunks);
  const espeak = await ESpeakNg({
    arguments: ['-w', '/out.wav', ...args, '-f', '/in.txt'],
    preRun: [(module) => module.FS.writeFile('/in.txt', text)],
    print: toStderr,
    printErr: toStderr,
  });
  let wav;
  try {
    wav = espeak.FS.readFile('/out.wav');
  } catch {
    process.exit(1);
  }
  if (wav.length === 0) process.exit(1);
  process.stdout.write(wav, () => process.exit(0));
}
`;

/** The command line running eSpeak NG's WebAssembly build from `modulePath` like the binary. */
export function espeakWasmCommand(modulePath: string, mode: 'run' | 'say', args: string[]): [string, string[]] {
  return [process.execPath, ['--input-type=module', '-e', RUNNER, modulePath, mode, ...args]];
}
