// A scripted HTTP server on 127.0.0.1 for contract tests: the real SDKs (in libs/providers' tests and in
// apps' tests through their real adapters) talk to it over the wire; it records every request and
// answers from a queue of replies (the last reply repeats).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeReply {
  status?: number;
  body?: unknown;
  /** Answer only after this many milliseconds (to exercise timeouts). */
  delayMs?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- parsed JSON of whatever the SDK sent
}

export interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  /** Replace the reply queue. */
  reply(...replies: FakeReply[]): void;
  close(): Promise<void>;
}

export async function startFakeServer(): Promise<FakeServer> {
  let queue: FakeReply[] = [{ status: 500, body: { error: 'no reply scripted' } }];
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        // keep the raw text
      }
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      const next = queue.length > 1 ? (queue.shift() as FakeReply) : queue[0];
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(next.status ?? 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(next.body ?? {}));
      };
      if (next.delayMs) setTimeout(send, next.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply(...replies) {
      queue = replies.length ? replies : queue;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
