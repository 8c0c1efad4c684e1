// A local HTTP server speaking the part of Meilisearch's REST API tools-api uses (the official client talks
// to it unchanged): documents add and delete-batch, settings, search with filter/sort/facets/crop/ranking
// score, and tasks. Filters are parsed with Meilisearch's grammar (AND, OR, NOT, parentheses, = != > >= <
// <=, IN [...]) and refused, as the real engine does, on attributes not declared filterable or sortable.
// Matching is simple on purpose: every query word must occur (the last as a prefix).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Doc = Record<string, unknown> & { id: string };
interface Task { uid: number; indexUid: string; status: 'succeeded' | 'failed'; type: string; error: { message: string; code: string } | null }

export interface MeiliFake {
  url: string;
  apiKey: string;
  docs: Map<string, Doc>;
  settings: { filterableAttributes: string[]; sortableAttributes: string[] };
  /** Requests seen, as "METHOD path". */
  calls: string[];
  /** The next document task ends as failed (an engine-side error). */
  failNextTask: boolean;
  close(): Promise<void>;
}

const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Meilisearch filter expression → predicate. */
function parseFilter(src: string, filterable: string[]): (d: Doc) => boolean {
  const tokens = src.match(/"(?:[^"\\]|\\.)*"|!=|>=|<=|[=><()[\],]|[^\s=!<>()[\],"]+/g) ?? [];
  let i = 0;
  const peek = () => tokens[i];
  const next = () => {
    const t = tokens[i++];
    if (t === undefined) throw new Error(`filter ends early: ${src}`);
    return t;
  };
  const value = (): string => {
    const t = next();
    return t.startsWith('"') ? t.slice(1, -1).replace(/\\(.)/g, '$1') : t;
  };
  const cmp = (a: unknown, op: string, b: string): boolean => {
    if (op === '=' || op === '!=') return (String(a) === b) === (op === '=');
    const x = Number(a);
    const y = Number(b);
    return op === '>' ? x > y : op === '>=' ? x >= y : op === '<' ? x < y : x <= y;
  };
  const primary = (): ((d: Doc) => boolean) => {
    if (peek() === '(') {
      next();
      const e = or();
      if (next() !== ')') throw new Error('expected )');
      return e;
    }
    if (peek()?.toUpperCase() === 'NOT') {
      next();
      const e = primary();
      return (d) => !e(d);
    }
    const attr = next();
    if (!filterable.includes(attr)) throw Object.assign(new Error(`Attribute \`${attr}\` is not filterable.`), { code: 'invalid_search_filter' });
    const op = next();
    if (op.toUpperCase() === 'IN') {
      if (next() !== '[') throw new Error('expected [');
      const list: string[] = [];
      while (peek() !== ']') {
        list.push(value());
        if (peek() === ',') next();
      }
      next();
      return (d) => list.includes(String(d[attr]));
    }
    const v = value();
    return (d) => cmp(d[attr], op, v);
  };
  const and = () => {
    let e = primary();
    while (peek()?.toUpperCase() === 'AND') {
      next();
      const [l, r] = [e, primary()];
      e = (d) => l(d) && r(d);
    }
    return e;
  };
  const or = () => {
    let e = and();
    while (peek()?.toUpperCase() === 'OR') {
      next();
      const [l, r] = [e, and()];
      e = (d) => l(d) || r(d);
    }
    return e;
  };
  const e = or();
  if (i !== tokens.length) throw new Error(`unexpected ${tokens[i]} in filter`);
  return e;
}

function search(fake: MeiliFake, body: Record<string, unknown>) {
  const q = words(String(body['q'] ?? ''));
  const filter = body['filter'] ? parseFilter(String(body['filter']), fake.settings.filterableAttributes) : () => true;
  const textOf = (d: Doc) => words([d['title'], ...((d['keywords'] as string[]) ?? []), d['body']].join(' '));
  const scored = [...fake.docs.values()].filter(filter).flatMap((d) => {
    const text = textOf(d);
    const title = words(String(d['title'] ?? ''));
    const hit = (w: string, last: boolean) => (t: string) => (last ? t.startsWith(w) : t === w);
    if (!q.every((w, k) => text.some(hit(w, k === q.length - 1)))) return [];
    const n = q.reduce((s, w, k) => s + text.filter(hit(w, k === q.length - 1)).length + 2 * title.filter(hit(w, k === q.length - 1)).length, 0);
    return [{ d, score: q.length ? n / (n + 3) : 1 }];
  });
  const sort = (body['sort'] as string[] | undefined) ?? [];
  for (const s of sort) {
    const attr = s.split(':')[0] ?? '';
    if (!fake.settings.sortableAttributes.includes(attr)) throw Object.assign(new Error(`Attribute \`${attr}\` is not sortable.`), { code: 'invalid_search_sort' });
  }
  scored.sort((a, b) => {
    for (const s of sort) {
      const [attr = '', dir] = s.split(':');
      const diff = Number(a.d[attr]) - Number(b.d[attr]);
      if (diff) return dir === 'desc' ? -diff : diff;
    }
    return b.score - a.score;
  });
  const facetDistribution: Record<string, Record<string, number>> = {};
  for (const f of (body['facets'] as string[] | undefined) ?? []) {
    facetDistribution[f] = {};
    for (const { d } of scored) facetDistribution[f][String(d[f])] = (facetDistribution[f][String(d[f])] ?? 0) + 1;
  }
  const offset = Number(body['offset'] ?? 0);
  const limit = Number(body['limit'] ?? 20);
  const crop = (text: string) => {
    const all = text.split(/\s+/);
    const at = Math.max(0, all.findIndex((w) => q.some((x) => words(w).some((t) => t.startsWith(x)))));
    const size = Number(body['cropLength'] ?? 10);
    const start = Math.max(0, at - Math.floor(size / 2));
    return `${start > 0 ? '…' : ''}${all.slice(start, start + size).join(' ')}${start + size < all.length ? '…' : ''}`;
  };
  const hits = scored.slice(offset, offset + limit).map(({ d, score }) => ({
    ...d,
    ...(body['showRankingScore'] ? { _rankingScore: score } : {}),
    ...((body['attributesToCrop'] as string[] | undefined)?.includes('body') ? { _formatted: { ...d, body: crop(String(d['body'] ?? '')) } } : {}),
  }));
  return { hits, query: body['q'] ?? '', offset, limit, estimatedTotalHits: scored.length, processingTimeMs: 0, ...(body['facets'] ? { facetDistribution } : {}) };
}

/** `port` 0 picks a free one; a stopped fake can be started again on its old port. */
export async function startMeiliFake(apiKey = 'test-meili-key', port = 0): Promise<MeiliFake> {
  const tasks = new Map<number, Task>();
  const fake: MeiliFake = { url: '', apiKey, docs: new Map(), settings: { filterableAttributes: [], sortableAttributes: [] }, calls: [], failNextTask: false, close: async () => undefined };
  const task = (indexUid: string, type: string, apply: () => void) => {
    const uid = tasks.size + 1;
    const failed = fake.failNextTask;
    fake.failNextTask = false;
    if (!failed) apply();
    tasks.set(uid, { uid, indexUid, type, status: failed ? 'failed' : 'succeeded', error: failed ? { message: 'index is read-only', code: 'internal' } : null });
    return { taskUid: uid, indexUid, status: 'enqueued', type, enqueuedAt: new Date().toISOString() };
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      fake.calls.push(`${req.method} ${path}`);
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.headers.authorization !== `Bearer ${apiKey}`) return send(401, { message: 'The provided API key is invalid.', code: 'invalid_api_key', type: 'auth', link: '' });
      try {
        const body = raw ? JSON.parse(raw) : {};
        let m: RegExpMatchArray | null;
        if ((m = path.match(/^\/tasks\/(\d+)$/)) && req.method === 'GET') {
          const t = tasks.get(Number(m[1]));
          return t ? send(200, { ...t, taskUid: t.uid }) : send(404, { message: 'Task not found', code: 'task_not_found', type: 'invalid_request', link: '' });
        }
        if ((m = path.match(/^\/indexes\/([\w-]+)\/documents$/)) && req.method === 'POST') {
          return send(202, task(m[1]!, 'documentAdditionOrUpdate', () => (body as Doc[]).forEach((d) => fake.docs.set(d.id, d))));
        }
        if ((m = path.match(/^\/indexes\/([\w-]+)\/documents\/delete-batch$/)) && req.method === 'POST') {
          return send(202, task(m[1]!, 'documentDeletion', () => (body as string[]).forEach((id) => fake.docs.delete(id))));
        }
        if ((m = path.match(/^\/indexes\/([\w-]+)\/settings$/)) && req.method === 'PATCH') {
          return send(202, task(m[1]!, 'settingsUpdate', () => Object.assign(fake.settings, body)));
        }
        if ((m = path.match(/^\/indexes\/([\w-]+)\/search$/)) && req.method === 'POST') return send(200, search(fake, body));
        return send(404, { message: `no route ${req.method} ${path}`, code: 'not_found', type: 'invalid_request', link: '' });
      } catch (err) {
        const e = err as Error & { code?: string };
        return send(400, { message: e.message, code: e.code ?? 'bad_request', type: 'invalid_request', link: '' });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}
