// SSRF guards (CONTRACTS §9 Imports). The only place a service fetches a URL a user gave is the URL import
// (CONTRACTS §9), through libs/http safe-fetch. Here: every spelling of an internal address that URL
// parsers accept (decimal, octal, hex and short IPv4, IPv4-mapped and unspecified IPv6, userinfo tricks,
// trailing dots, CGNAT, benchmark, multicast and documentation ranges) and every non-http scheme is refused
// with 400 naming url before anything connects or is stored; and no service code reaches the network any
// other way (a scan of apps/*/src for raw HTTP clients).
// Also held elsewhere: safe-fetch unit and local-server cases, redirects into the network, DNS rebinding,
// size and time caps (libs/http/src/safe-fetch.test.ts); the import job's fetch (features/imports/imports.test.ts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../test/helper';

let t: TestContext;
let user: SignedUp;
let inside: Server;
let port: number;
const hits: string[] = [];
beforeAll(async () => {
  t = await buildTestApp();
  user = await signUp(t.app);
  // A server "inside the network" that must never be reached.
  inside = createServer((req, res) => (hits.push(req.url ?? ''), res.end('secret')));
  await new Promise<void>((r) => inside.listen(0, '127.0.0.1', r));
  port = (inside.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((r) => inside.close(r));
  await t.close();
});

const REFUSED = [
  `http://127.0.0.1:PORT/`,
  `http://2130706433:PORT/`, // decimal 127.0.0.1
  `http://0177.0.0.1:PORT/`, // octal
  `http://0x7f.0.0.1:PORT/`, // hex
  `http://127.1:PORT/`, // short form
  `http://0:PORT/`, // 0.0.0.0
  `http://0.0.0.0:PORT/`,
  `http://[::]:PORT/`,
  `http://[::1]:PORT/`,
  `http://[::ffff:127.0.0.1]:PORT/`,
  `http://[0:0:0:0:0:ffff:7f00:1]:PORT/`,
  `http://[::ffff:7f00:1]:PORT/`,
  // IPv4 inside IPv6: IPv4-compatible, translated, NAT64, 6to4 and Teredo spellings of loopback and metadata.
  `http://[::127.0.0.1]:PORT/`,
  `http://[::7f00:1]:PORT/`,
  'http://[::a9fe:a9fe]/latest/meta-data/',
  'http://[::169.254.169.254]/latest/meta-data/',
  `http://[::ffff:0:127.0.0.1]:PORT/`,
  `http://[64:ff9b::127.0.0.1]:PORT/`,
  'http://[64:ff9b::a9fe:a9fe]/latest/meta-data/',
  `http://[2002:7f00:1::1]:PORT/`,
  'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
  `http://localhost:PORT/`,
  `http://LOCALHOST.:PORT/`,
  `http://user:pass@127.0.0.1:PORT/`,
  `http://example.com@127.0.0.1:PORT/`,
  'http://10.0.0.1/',
  'http://172.16.5.4/',
  'http://192.168.1.1/',
  'http://169.254.169.254/latest/meta-data/',
  'http://[fd00::1]/',
  'http://[fe80::1]/',
  'http://100.64.0.1/', // carrier-grade NAT
  'http://198.18.0.1/', // benchmarking
  'http://224.0.0.1/', // multicast
  'http://255.255.255.255/',
  'http://192.0.2.1/', // documentation
  'file:///etc/passwd',
  'ftp://127.0.0.1/x',
  'gopher://127.0.0.1:6379/_INFO',
  'data:text/html,<h1>x</h1>',
  'javascript:alert(1)',
  'dict://127.0.0.1:6379/info',
  '//127.0.0.1/',
  'http:///etc/passwd',
];

it.each(REFUSED.map((u) => [u]))('refuses %s with 400 naming url, before connecting or storing', async (template) => {
  // PORT: the inside server's port, known once it listens.
  const url = template.replace(':PORT/', `:${port}/`);
  const before = (await t.database.sql`select count(*)::int as n from imports`)[0]!['n'];
  for (const request of [
    { method: 'POST' as const, url: '/api/imports/url', payload: { url } },
    { method: 'POST' as const, url: '/api/imports', payload: { sourceType: 'url', url } },
  ]) {
    const res = await t.app.inject({ ...request, headers: user.headers });
    expect({ url, status: res.statusCode }).toEqual({ url, status: 400 });
    expect(res.json().error).toMatch(/url/i);
  }
  expect((await t.database.sql`select count(*)::int as n from imports`)[0]!['n']).toBe(before);
  await t.app.coreJobs.drain();
  expect(hits).toEqual([]);
});

it('no service code opens HTTP connections except through safe-fetch and the provider adapters', () => {
  const root = path.resolve(__dirname, '../../..');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts') && !p.endsWith('.test.ts') && !p.includes(`${path.sep}test${path.sep}`) && !p.includes(`${path.sep}fuzz${path.sep}`) && !p.includes(`${path.sep}faults${path.sep}`)) files.push(p);
    }
  };
  for (const app of ['core-api', 'email-service', 'tools-api']) walk(path.join(root, app, 'src'));
  expect(files.length).toBeGreaterThan(100);
  const raw = /\bfetch\s*\(|\bhttps?\.(request|get)\s*\(|from ['"](undici|axios|got|node-fetch)['"]|new\s+XMLHttpRequest|\bnet\.connect\s*\(/;
  const offenders = files.filter((f) => raw.test(readFileSync(f, 'utf8'))).map((f) => path.relative(root, f));
  expect(offenders).toEqual([]);
});
