// A small keep-alive HTTP client for the load driver (node:http; undici is not a dependency here).
// One agent per service, shared by every virtual user: each user has at most one request in flight, so
// the number of busy sockets never exceeds the number of users.
import http from 'node:http';

export interface Answer {
  status: number;
  body: Buffer;
}

export class ConnectionError extends Error {}

export function agentFor(connections: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
}

export function send(
  agent: http.Agent,
  url: URL,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer | string; timeoutMs?: number } = {},
): Promise<Answer> {
  const body = typeof options.body === 'string' ? Buffer.from(options.body) : options.body;
  const headers: Record<string, string | number> = { ...(options.headers ?? {}) };
  if (body) headers['content-length'] = body.length;
  return new Promise((resolve, reject) => {
    const req = http.request(
      { agent, host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: options.method ?? 'GET', headers, timeout: options.timeoutMs ?? 30_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', (err) => reject(new ConnectionError(err.message)));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${(options.timeoutMs ?? 30_000) / 1000} s`)));
    req.on('error', (err) => reject(new ConnectionError(err.message)));
    req.end(body);
  });
}

/** A multipart/form-data body: text fields, then one file part. */
export function multipart(fields: Record<string, string>, file: { field: string; filename: string; type: string; data: Buffer }): { body: Buffer; contentType: string } {
  const boundary = `----load${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\ncontent-type: ${file.type}\r\n\r\n`));
  parts.push(file.data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A short mono 16-bit PCM WAV (a quiet tone), `seconds` long at 8 kHz: a small real recording. */
export function wav(seconds: number): Buffer {
  const rate = 8000;
  const samples = Math.round(rate * seconds);
  const buf = Buffer.alloc(44 + samples * 2);
  buf.write('RIFF', 0);
  buf.writeUInt32LE(36 + samples * 2, 4);
  buf.write('WAVEfmt ', 8);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36);
  buf.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) buf.writeInt16LE(Math.round(3000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  return buf;
}
