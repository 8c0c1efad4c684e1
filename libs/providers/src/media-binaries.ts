// Where the media tools come from, so `npm install` alone is enough (no Debian package): ffmpeg and
// ffprobe are the static builds carried inside @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe;
// eSpeak NG is a system binary when one is on PATH, else the WebAssembly build of the `espeak-ng` package.
// An explicit FFMPEG_PATH / FFPROBE_PATH / ESPEAK_NG_PATH always wins. Resolved once, at first use.
import { accessSync, chmodSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export type BinarySource = 'env' | 'system' | 'npm';

export interface ResolvedBinary {
  /** Absolute path (or the override as given). */
  path: string;
  source: BinarySource;
}

/** eSpeak NG either as a program to spawn, or as the WebAssembly module (run in a child Node process). */
export type EspeakBinary = ResolvedBinary | { wasm: string; source: 'npm' };

type Env = Record<string, string | undefined>;

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The first `name` on PATH that can be executed, or undefined. */
export function findOnPath(name: string, env: Env = process.env): string | undefined {
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * The binary an installer package points at. A tarball may arrive without its execute bit (ffprobe's
 * does; its postinstall restores it, but install scripts can be skipped): add it here, or say clearly why not.
 */
function fromPackage(pkg: string, name: string, load: () => { path: string }): string {
  let file: string;
  try {
    file = load().path;
  } catch (err) {
    throw new Error(`${name} is not available: the npm package ${pkg} has no build for ${process.platform}-${process.arch}; set ${envName(name)}`, { cause: err });
  }
  return ensureExecutable(file, `${name} from ${pkg}`, envName(name));
}

/** Add the execute bit when a file lacks it; a clear error when that is not possible. */
export function ensureExecutable(file: string, what: string, envVariable: string): string {
  if (isExecutable(file)) return file;
  try {
    chmodSync(file, statSync(file).mode | 0o755);
  } catch (err) {
    throw new Error(`${what} (${file}) is not executable and could not be made so; run chmod +x on it or set ${envVariable}`, { cause: err });
  }
  return file;
}

const envName = (name: string) => `${name.toUpperCase().replace(/-/g, '_')}_PATH`;

const cache = new Map<string, ResolvedBinary>();

// Literal require() calls, so bundlers and Nx's package.json generation see the packages.
const PACKAGES = {
  ffmpeg: { pkg: '@ffmpeg-installer/ffmpeg', load: () => require('@ffmpeg-installer/ffmpeg') as { path: string } },
  ffprobe: { pkg: '@ffprobe-installer/ffprobe', load: () => require('@ffprobe-installer/ffprobe') as { path: string } },
};

function resolveTool(name: 'ffmpeg' | 'ffprobe', env: Env): ResolvedBinary {
  const override = env[envName(name)]?.trim();
  if (override) return { path: override, source: 'env' };
  const cached = cache.get(name);
  if (cached) return cached;
  const { pkg, load } = PACKAGES[name];
  const resolved: ResolvedBinary = { path: fromPackage(pkg, name, load), source: 'npm' };
  cache.set(name, resolved);
  return resolved;
}

/** ffmpeg: FFMPEG_PATH, else the build inside @ffmpeg-installer/ffmpeg. Throws with a clear message when neither exists. */
export function ffmpegBinary(env: Env = process.env): ResolvedBinary {
  return resolveTool('ffmpeg', env);
}

/** ffprobe: FFPROBE_PATH, else the build inside @ffprobe-installer/ffprobe. */
export function ffprobeBinary(env: Env = process.env): ResolvedBinary {
  return resolveTool('ffprobe', env);
}

/** The path of ffmpeg, for callers that only spawn it. */
export const ffmpegPath = (env: Env = process.env) => ffmpegBinary(env).path;
/** The path of ffprobe, for callers that only spawn it. */
export const ffprobePath = (env: Env = process.env) => ffprobeBinary(env).path;

/** eSpeak NG: ESPEAK_NG_PATH, else espeak-ng on PATH, else the WebAssembly build of the espeak-ng package. */
export function espeakBinary(env: Env = process.env): EspeakBinary {
  const override = env['ESPEAK_NG_PATH']?.trim();
  if (override) return { path: override, source: 'env' };
  const system = findOnPath('espeak-ng', env);
  if (system) return { path: system, source: 'system' };
  return { wasm: require.resolve('espeak-ng'), source: 'npm' };
}
