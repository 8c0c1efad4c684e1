// safeFetch against real local HTTP servers: redirects into loopback and to the cloud metadata address
// are refused hop by hop and those servers never see a request; private literals in every form are
// refused before connecting; the resolver is asked once and its answer is the address connected to.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { checkUrl, isPublicAddress, safeFetch, SafeFetchError, UnsafeUrlError, type AllowedPrivate } from './safe-fetch';

interface TestServer {
  port: number;
  hits: string[];
  close(): Promise<void>;
}

async function serve(handler: http.RequestListener): Promise<TestServer> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '240.0.0.1',
    '::1', '::', 'fe80::1', 'fc00::1', 'fd00:ec2::254', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:169.254.169.254', '64:ff9b::a00:1', '2002:7f00:1::',
    // IPv4 inside IPv6: IPv4-compatible (::a.b.c.d, as the URL parser writes it), translated, NAT64, 6to4, Teredo.
    '::7f00:1', '::127.0.0.1', '::a9fe:a9fe', '::808:808', '::ffff:0:7f00:1', '::ffff:0:a9fe:a9fe', '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe', '64:ff9b:1::808:808',
    '2002:a9fe:a9fe::1', '2002:808:808::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001::7f00:1',
  ])('refuses %s', (ip) => expect(isPublicAddress(ip)).toBe(false));

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '::ffff:0:808:808'])('accepts %s', (ip) => expect(isPublicAddress(ip)).toBe(true));
});

describe('checkUrl', () => {
  it.each([
    ['http://127.0.0.1/', 'private_address'],
    ['http://[::1]/', 'private_address'],
    ['http://169.254.169.254/latest/meta-data/', 'private_address'],
    ['http://[::ffff:127.0.0.1]/', 'private_address'],
    ['http://[::127.0.0.1]/', 'private_address'],
    ['http://[::a9fe:a9fe]/latest/meta-data/', 'private_address'],
    ['http://[64:ff9b::169.254.169.254]/', 'private_address'],
    ['http://2130706433/', 'private_address'],
    ['http://0x7f.1/', 'private_address'],
    ['http://100.64.1.1/', 'private_address'],
    ['ftp://example.com/file.txt', 'scheme'],
    ['file:///etc/passwd', 'scheme'],
    ['http://user:pw@example.com/', 'credentials'],
    ['not a url', 'invalid_url'],
  ])('refuses %s (%s)', async (url, reason) => {
    const resolve = jest.fn(async () => [{ address: '93.184.216.34', family: 4 as const }]);
    await expect(checkUrl(url, { resolve })).rejects.toMatchObject({ name: 'UnsafeUrlError', reason });
  });

  it('refuses a name when any address it resolves to is private, and resolves it once', async () => {
    const resolve = jest.fn(async () => [{ address: '93.184.216.34', family: 4 as const }, { address: '10.0.0.5', family: 4 as const }]);
    await expect(checkUrl('https://intranet.example.test/', { resolve })).rejects.toBeInstanceOf(UnsafeUrlError);
    expect(resolve).toHaveBeenCalledTimes(1);
  });

  it('passes a public name and returns the checked address', async () => {
    const resolve = async () => [{ address: '93.184.216.34', family: 4 as const }];
    await expect(checkUrl('https://example.test/a', { resolve })).resolves.toMatchObject({ target: { address: '93.184.216.34' } });
  });
});

describe('safeFetch against local servers', () => {
  let origin: TestServer;
  let inside: TestServer;
  let allow: AllowedPrivate[];
  // The "public" host name resolves (once, through the injected resolver) to the origin server only.
  const resolve = jest.fn(async (host: string) => {
    if (host === 'stories.example.test') return [{ address: '127.0.0.1', family: 4 as const }];
    if (host === 'rebind.example.test') return [{ address: '10.0.0.7', family: 4 as const }];
    throw new Error('NXDOMAIN');
  });

  beforeAll(async () => {
    inside = await serve((_req, res) => res.end('secret inside data'));
    origin = await serve((req, res) => {
      if (req.url === '/to-loopback') return res.writeHead(302, { location: `http://127.0.0.1:${inside.port}/admin` }).end();
      if (req.url === '/to-metadata') return res.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/iam' }).end();
      if (req.url === '/to-mapped') return res.writeHead(307, { location: `http://[::ffff:127.0.0.1]:${inside.port}/` }).end();
      if (req.url === '/to-rebind') return res.writeHead(302, { location: `http://rebind.example.test:${inside.port}/` }).end();
      if (req.url === '/to-ftp') return res.writeHead(302, { location: 'ftp://example.com/' }).end();
      if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
      if (req.url === '/hop') return res.writeHead(302, { location: '/page' }).end();
      if (req.url === '/big') return res.end(Buffer.alloc(300_000, 'a'));
      if (req.url === '/gzip-bomb') return res.writeHead(200, { 'content-encoding': 'gzip' }).end(zlib.gzipSync(Buffer.alloc(5_000_000, 'a')));
      if (req.url === '/slow') return setTimeout(() => res.end('late'), 2_000);
      if (req.url === '/page') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<h1>Grandma</h1><p>She sailed in 1952.</p>');
      res.writeHead(404).end();
    });
    // Only the origin's exact address and port are let through, as a test needs to reach it at all.
    allow = [{ cidr: '127.0.0.1/32', port: origin.port }];
  });
  afterAll(async () => {
    await origin.close();
    await inside.close();
  });

  const base = () => `http://stories.example.test:${origin.port}`;

  it('fetches a page through a relative redirect, connecting to the resolved address', async () => {
    const connects: string[] = [];
    const res = await safeFetch(`${base()}/hop`, { resolve, allowPrivate: allow, onConnect: (c) => connects.push(`${c.address}:${c.port}`) });
    expect(res.body.toString()).toContain('She sailed in 1952.');
    expect(res.url).toBe(`${base()}/page`);
    expect(connects).toEqual([`127.0.0.1:${origin.port}`, `127.0.0.1:${origin.port}`]);
  });

  it.each(['/to-loopback', '/to-mapped', '/to-rebind', '/to-metadata', '/to-ftp'])('refuses the redirect %s and the target sees nothing', async (path) => {
    const connects: string[] = [];
    await expect(safeFetch(`${base()}${path}`, { resolve, allowPrivate: allow, onConnect: (c) => connects.push(c.address) })).rejects.toBeInstanceOf(UnsafeUrlError);
    expect(inside.hits).toEqual([]);
    // Only the origin was connected to: never 169.254.169.254, never the inside server.
    expect(connects).toEqual(['127.0.0.1']);
  });

  it('refuses loopback itself without the test allowance', async () => {
    const before = origin.hits.length;
    await expect(safeFetch(`http://127.0.0.1:${origin.port}/page`)).rejects.toMatchObject({ reason: 'private_address' });
    expect(origin.hits.length).toBe(before);
  });

  it('caps redirects, size (also after decompression) and time', async () => {
    await expect(safeFetch(`${base()}/loop`, { resolve, allowPrivate: allow })).rejects.toMatchObject({ reason: 'too_many_redirects' });
    await expect(safeFetch(`${base()}/big`, { resolve, allowPrivate: allow, maxBytes: 100_000 })).rejects.toMatchObject({ reason: 'too_large' });
    await expect(safeFetch(`${base()}/gzip-bomb`, { resolve, allowPrivate: allow, maxBytes: 100_000 })).rejects.toMatchObject({ reason: 'too_large' });
    await expect(safeFetch(`${base()}/slow`, { resolve, allowPrivate: allow, timeoutMs: 300 })).rejects.toMatchObject({ reason: 'timeout' });
    await expect(safeFetch(`${base()}/missing`, { resolve, allowPrivate: allow })).rejects.toEqual(expect.any(SafeFetchError));
  });
});
