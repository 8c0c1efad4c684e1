// A pino destination for tests that read what a service logged (no secret in a log line, a refusal's
// reason logged): pass `stream` as the app's logStream, then assert on `text()`.
import { Writable } from 'node:stream';

export function logCapture(): { stream: Writable; lines: string[]; text: () => string } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines, text: () => lines.join('\n') };
}
