// Development secrets: generated once and kept under DATA_DIR so every service (and every restart)
// shares them. Production must set them (see requireInProduction in each app's config).
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Return the secret kept in `$dataDir/secrets/<name>`, creating it atomically on first use. */
export function persistentSecret(dataDir: string, name: string, bytes = 48): string {
  const dir = path.resolve(dataDir, 'secrets');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, name);
  try {
    // 'wx' fails if another process created it first; then we read theirs.
    writeFileSync(file, randomBytes(bytes).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return readFileSync(file, 'utf8').trim();
}
