// Where ffmpeg, ffprobe and eSpeak NG come from: an explicit override, a system espeak-ng on PATH, else
// the builds shipped in npm (which must work on a machine with none of them installed).
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureExecutable, espeakBinary, ffmpegBinary, ffprobeBinary, findOnPath } from './media-binaries';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'media-binaries-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('media binaries', () => {
  it('takes ffmpeg and ffprobe from npm when no override is set, and both run', () => {
    const ffmpeg = ffmpegBinary({ PATH: '' });
    const ffprobe = ffprobeBinary({ PATH: '' });
    expect(ffmpeg).toMatchObject({ source: 'npm', path: expect.stringContaining('@ffmpeg-installer') });
    expect(ffprobe).toMatchObject({ source: 'npm', path: expect.stringContaining('@ffprobe-installer') });
    expect(execFileSync(ffmpeg.path, ['-version']).toString()).toMatch(/^ffmpeg version/);
    expect(execFileSync(ffprobe.path, ['-version']).toString()).toMatch(/^ffprobe version/);
    // Executable whatever the tarball said (ffprobe's has no execute bit).
    expect(statSync(ffprobe.path).mode & 0o111).not.toBe(0);
  });

  it('prefers FFMPEG_PATH, FFPROBE_PATH and ESPEAK_NG_PATH when set', () => {
    expect(ffmpegBinary({ FFMPEG_PATH: '/opt/ff/ffmpeg' })).toEqual({ path: '/opt/ff/ffmpeg', source: 'env' });
    expect(ffprobeBinary({ FFPROBE_PATH: '/opt/ff/ffprobe' })).toEqual({ path: '/opt/ff/ffprobe', source: 'env' });
    expect(espeakBinary({ ESPEAK_NG_PATH: '/opt/espeak-ng', PATH: '/usr/bin' })).toEqual({ path: '/opt/espeak-ng', source: 'env' });
  });

  it('uses a system espeak-ng on PATH, else the WebAssembly build from npm', () => {
    const fake = join(dir, 'espeak-ng');
    writeFileSync(fake, '#!/bin/sh\nexit 0\n');
    chmodSync(fake, 0o644);
    // Present but not executable: not a usable binary.
    expect(findOnPath('espeak-ng', { PATH: dir })).toBeUndefined();
    expect(espeakBinary({ PATH: dir })).toEqual({ wasm: expect.stringMatching(/espeak-ng[\\/]dist[\\/]espeak-ng\.js$/), source: 'npm' });
    chmodSync(fake, 0o755);
    expect(espeakBinary({ PATH: `/nonexistent:${dir}` })).toEqual({ path: fake, source: 'system' });
  });

  it('adds a missing execute bit (as an npm tarball may leave it), or says clearly why it cannot', () => {
    const bin = join(dir, 'tool');
    writeFileSync(bin, '#!/bin/sh\necho ran\n');
    chmodSync(bin, 0o644);
    expect(ensureExecutable(bin, 'tool from some-package', 'TOOL_PATH')).toBe(bin);
    expect(execFileSync(bin).toString()).toBe('ran\n');
    expect(() => ensureExecutable(join(dir, 'missing'), 'tool from some-package', 'TOOL_PATH')).toThrow(
      /tool from some-package \(.*missing\) is not executable and could not be made so; run chmod \+x on it or set TOOL_PATH/,
    );
  });
});
