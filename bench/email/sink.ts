// SMTP sink for the queue bench, run as its own process so receiving does not share the senders' event loop.
// smtp-server on 127.0.0.1 (STARTTLS disabled, as in the tests), counting messages by Message-ID.
// Prints one JSON line {smtpPort, httpPort} when listening; HTTP: GET /stats, GET /ids, POST /reset.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

const counts = new Map<string, number>();
let received = 0;
let withoutId = 0;

function messageIdOf(head: string): string | undefined {
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const line = unfolded.split(/\r?\n/).find((l) => l.toLowerCase().startsWith('message-id:'));
  return line?.slice('message-id:'.length).trim();
}

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  maxClients: 1000,
  onData(stream, _session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const id = messageIdOf(raw.split(/\r?\n\r?\n/)[0] ?? '');
      received += 1;
      if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
      else withoutId += 1;
      callback(null, `Ok: queued as SINK${received}`);
    });
  },
});
smtp.on('error', (err) => process.stderr.write(`smtp error: ${err.message}\n`));

const stats = () => {
  let duplicates = 0;
  for (const n of counts.values()) if (n > 1) duplicates += n - 1;
  return { received, distinct: counts.size, duplicates, withoutId };
};

const api = http.createServer((req, res) => {
  const send = (body: unknown) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
  };
  if (req.url === '/stats') return send(stats());
  if (req.url === '/ids') return send([...counts.keys()]);
  if (req.url === '/reset' && req.method === 'POST') {
    counts.clear();
    received = 0;
    withoutId = 0;
    return send({ ok: true });
  }
  res.statusCode = 404;
  res.end();
});

smtp.listen(0, '127.0.0.1', () => {
  api.listen(0, '127.0.0.1', () => {
    const smtpPort = (smtp.server.address() as AddressInfo).port;
    const httpPort = (api.address() as AddressInfo).port;
    process.stdout.write(`${JSON.stringify({ smtpPort, httpPort })}\n`);
  });
});

const stop = () => smtp.close(() => api.close(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
