// The load mix: virtual users, each a signed-up storyteller (with a tools session and a fake client address),
// loop until the time is up, picking one route at a time by weight. Every user has one request in flight at
// a time, so BENCH_LOAD_CONNECTIONS users are that many concurrent connections in all.
//
// Every write carries a unique marker (a title, the tools generation's customContext, the User-Agent of a
// sign-in, the svix-id of a webhook) and is entered in the ledger with its outcome: `ack` (2xx), `refused`
// (any other answer) or `unknown` (connection error or timeout: the client cannot tell). verify.ts reads
// the database against the ledger afterwards.
import type http from 'node:http';
import { performance } from 'node:perf_hooks';
import { Webhook } from 'svix';
import { ConnectionError, multipart, send, type Answer } from './http';

export type Phase = 'warmup' | 'measured';
export type Service = 'core' | 'email' | 'tools';
export type WriteKind = 'signin' | 'upload' | 'convert' | 'generate' | 'webhook';

export interface VirtualUser {
  index: number;
  email: string;
  password: string;
  userId: string;
  token: string;
  campaignId: string;
  /** Recordings of this user not yet converted (only this user converts them, so no conflicts between users). */
  unconverted: string[];
  toolsSession: string;
  /** X-Forwarded-For of this user (the services trust one proxy hop, as deployed behind a load balancer). */
  ip: string;
}

export interface LoadContext {
  runId: string;
  urls: Record<Service, string>;
  agents: Record<Service, http.Agent>;
  webhookSecret: string;
  /** provider_message_id of the sent emails the delivery events refer to. */
  messageIds: [string, ...string[]];
  searchWords: [string, ...string[]];
  audio: Buffer;
  transcript: string;
}

export interface WriteRecord {
  kind: WriteKind;
  marker: string;
  outcome: 'ack' | 'refused' | 'unknown';
  status: number;
  /** The id the answer named (recording, story, tools content, session). */
  id?: string;
  /** Convert: the recording converted. */
  sourceId?: string;
  userId: string;
}

export interface RouteStats {
  requests: number;
  ok: number;
  s4xx: number;
  s5xx: number;
  connErrors: number;
  latencies: number[];
  /** A few sample non-2xx answers, for the report. */
  samples: string[];
}

interface Request {
  service: Service;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  write?: { kind: WriteKind; marker: string; sourceId?: string };
}

export interface RouteDef {
  name: string;
  service: Service;
  /** AI routes (model work, offline here) are outside the p99 target. */
  ai: boolean;
  weight: number;
  /** undefined: this user cannot make this request now (another route is picked). */
  build(vu: VirtualUser, ctx: LoadContext, seq: () => number): Request | undefined;
  /** Read what the answer gives the user (a new token, a recording to convert) and the written id. */
  onOk?(vu: VirtualUser, body: Buffer): string | undefined;
}

const json = (body: unknown) => JSON.stringify(body);
const pick = <T>(list: readonly [T, ...T[]]): T => list[Math.floor(Math.random() * list.length)] ?? list[0];
const bearer = (vu: VirtualUser) => ({ authorization: `Bearer ${vu.token}`, 'x-forwarded-for': vu.ip });
const toolsHeaders = (vu: VirtualUser) => ({ 'x-session-id': vu.toolsSession, 'user-agent': 'load-bench', 'x-forwarded-for': vu.ip });
const GENRES: [string, ...string[]] = ['mystery', 'romance', 'fantasy', 'horror', 'comedy', 'family saga', 'adventure', 'thriller'];
const WEBHOOK_TYPES: [string, ...string[]] = ['email.delivered', 'email.delivered', 'email.opened', 'email.opened', 'email.clicked'];

/** The sid claim of an access token (the auth_sessions row it names). */
export function sidOf(token: string): string | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sid?: string };
    return payload.sid;
  } catch {
    return undefined;
  }
}

export const ALL_ROUTES: RouteDef[] = [
  {
    name: 'POST /api/auth/signin',
    service: 'core',
    ai: false,
    weight: 3,
    build: (vu, ctx, seq) => {
      const marker = `load-si-${ctx.runId}-${seq()}`;
      // The User-Agent is kept on the session row: the marker of this write.
      return { service: 'core', method: 'POST', path: '/api/auth/signin', headers: { 'content-type': 'application/json', 'user-agent': `load-bench ${marker}`, 'x-forwarded-for': vu.ip }, body: json({ email: vu.email, password: vu.password }), write: { kind: 'signin', marker } };
    },
    onOk: (vu, body) => {
      const token = (JSON.parse(body.toString('utf8')) as { session: { access_token: string } }).session.access_token;
      vu.token = token;
      return sidOf(token);
    },
  },
  {
    name: 'GET /api/stories',
    service: 'core',
    ai: false,
    weight: 14,
    build: (vu) => ({ service: 'core', method: 'GET', path: `/api/stories?limit=20${Math.random() < 0.3 ? '&page=1' : ''}`, headers: bearer(vu) }),
  },
  {
    name: 'GET /api/memories (paging)',
    service: 'core',
    ai: false,
    weight: 12,
    build: (vu) => ({ service: 'core', method: 'GET', path: `/api/memories?page=${pick([0, 0, 0, 1, 1, 2])}${Math.random() < 0.25 ? '&filter=Recordings' : ''}`, headers: bearer(vu) }),
  },
  {
    name: 'POST /api/recordings (upload)',
    service: 'core',
    ai: false,
    weight: 8,
    build: (vu, ctx, seq) => {
      const marker = `load-up-${ctx.runId}-${seq()}`;
      const { body, contentType } = multipart({ title: marker, campaignId: vu.campaignId, transcript: ctx.transcript }, { field: 'audio', filename: 'memory.wav', type: 'audio/wav', data: ctx.audio });
      return { service: 'core', method: 'POST', path: '/api/recordings', headers: { ...bearer(vu), 'content-type': contentType }, body, write: { kind: 'upload', marker } };
    },
    onOk: (vu, body) => {
      const id = (JSON.parse(body.toString('utf8')) as { recording: { id: string } }).recording.id;
      vu.unconverted.push(id);
      return id;
    },
  },
  {
    name: 'POST /api/stories/convert',
    service: 'core',
    ai: true,
    weight: 5,
    build: (vu, ctx, seq) => {
      const sourceId = vu.unconverted.shift();
      if (!sourceId) return undefined;
      const marker = `load-cv-${ctx.runId}-${seq()}`;
      return { service: 'core', method: 'POST', path: '/api/stories/convert', headers: { ...bearer(vu), 'content-type': 'application/json' }, body: json({ sourceType: 'recording', sourceId, title: marker }), write: { kind: 'convert', marker, sourceId } };
    },
    onOk: (_vu, body) => (JSON.parse(body.toString('utf8')) as { story: { id: string } }).story.id,
  },
  {
    name: 'POST /api/plot-twists/generate',
    service: 'tools',
    ai: true,
    weight: 7,
    build: (vu, ctx, seq) => {
      const marker = `load-gen-${ctx.runId}-${seq()}`;
      const options = { genre: pick(GENRES), intensity: pick(['subtle', 'dramatic', 'mind-blowing'] as const), customContext: marker };
      return { service: 'tools', method: 'POST', path: '/api/plot-twists/generate', headers: { ...toolsHeaders(vu), 'content-type': 'application/json' }, body: json({ sessionId: vu.toolsSession, options }), write: { kind: 'generate', marker } };
    },
    onOk: (_vu, body) => (JSON.parse(body.toString('utf8')) as { data: { id: string } }).data.id,
  },
  {
    name: 'GET /api/plot-twists/browse',
    service: 'tools',
    ai: false,
    weight: 12,
    build: (vu) => {
      const path = Math.random() < 0.5 ? '/api/plot-twists/browse' : '/api/plot-twists';
      return { service: 'tools', method: 'GET', path: `${path}?sort=${pick(['popular', 'newest', 'featured'])}&page=${pick([1, 1, 1, 2, 3])}&limit=20`, headers: toolsHeaders(vu) };
    },
  },
  {
    name: 'GET /api/search',
    service: 'tools',
    ai: false,
    weight: 10,
    build: (vu, ctx) => ({ service: 'tools', method: 'GET', path: `/api/search?q=${encodeURIComponent(pick(ctx.searchWords))}`, headers: toolsHeaders(vu) }),
  },
  {
    name: 'POST /api/webhooks/email/resend',
    service: 'email',
    ai: false,
    weight: 12,
    build: (_vu, ctx, seq) => {
      const marker = `msg_load_${ctx.runId}_${seq()}`;
      const at = new Date();
      const payload = json({ type: pick(WEBHOOK_TYPES), created_at: at.toISOString(), data: { email_id: pick(ctx.messageIds), to: 'reader@example.test', subject: 'A new story is waiting' } });
      const signature = new Webhook(ctx.webhookSecret).sign(marker, at, payload);
      const headers = { 'content-type': 'application/json', 'svix-id': marker, 'svix-timestamp': String(Math.floor(at.getTime() / 1000)), 'svix-signature': signature };
      return { service: 'email', method: 'POST', path: '/api/webhooks/email/resend', headers, body: payload, write: { kind: 'webhook', marker } };
    },
  },
];

/**
 * BENCH_LOAD_ONLY=<words,...>: only the routes whose name contains one of the words (case-insensitive),
 * with their usual weights; for finding which route slows the others. Unset: the whole mix.
 */
export function selectRoutes(only: string | undefined): RouteDef[] {
  const words = (only ?? '').split(',').map((w) => w.trim().toLowerCase()).filter(Boolean);
  return words.length ? ALL_ROUTES.filter((r) => words.some((w) => r.name.toLowerCase().includes(w))) : ALL_ROUTES;
}

export function newStats(): RouteStats {
  return { requests: 0, ok: 0, s4xx: 0, s5xx: 0, connErrors: 0, latencies: [], samples: [] };
}

export interface DriveResult {
  stats: Record<Phase, Map<string, RouteStats>>;
  ledger: WriteRecord[];
  measuredSeconds: number;
}

/** Run the users for warm-up + measured seconds; stats per phase and route, and the write ledger. */
export async function drive(
  users: VirtualUser[],
  ctx: LoadContext,
  options: { warmupSeconds: number; seconds: number; routes: RouteDef[]; stopped: () => boolean; onMeasuredStart?: () => void },
): Promise<DriveResult> {
  const { warmupSeconds, seconds, routes: ROUTES, stopped, onMeasuredStart } = options;
  const stats: Record<Phase, Map<string, RouteStats>> = { warmup: new Map(), measured: new Map() };
  for (const phase of ['warmup', 'measured'] as const) for (const r of ROUTES) stats[phase].set(r.name, newStats());
  const ledger: WriteRecord[] = [];
  let counter = 0;
  const seq = () => ++counter;
  const total = ROUTES.reduce((s, r) => s + r.weight, 0);
  const start = performance.now();
  const measuredFrom = start + warmupSeconds * 1000;
  const end = measuredFrom + seconds * 1000;

  const choose = (vu: VirtualUser): [RouteDef, Request] => {
    for (;;) {
      let x = Math.random() * total;
      const route = ROUTES.find((r) => (x -= r.weight) < 0) ?? (ROUTES[ROUTES.length - 1] as RouteDef);
      const req = route.build(vu, ctx, seq);
      if (req) return [route, req];
      // Convert alone with nothing left to convert: upload first.
      const fallback = ALL_ROUTES.find((r) => r.name === 'POST /api/recordings (upload)')?.build(vu, ctx, seq);
      if (fallback && ROUTES.every((r) => r.name === 'POST /api/stories/convert')) return [ALL_ROUTES.find((r) => r.name === 'POST /api/recordings (upload)') as RouteDef, fallback];
    }
  };

  const loop = async (vu: VirtualUser) => {
    while (performance.now() < end && !stopped()) {
      const [route, req] = choose(vu);
      const t0 = performance.now();
      const phase = stats[t0 < measuredFrom ? 'warmup' : 'measured'];
      const s = phase.get(route.name) ?? newStats();
      phase.set(route.name, s);
      let answer: Answer | undefined;
      let failure = '';
      try {
        answer = await send(ctx.agents[req.service], new URL(req.path, ctx.urls[req.service]), { method: req.method, headers: req.headers, body: req.body });
      } catch (err) {
        if (!(err instanceof ConnectionError)) throw err;
        failure = err.message;
      }
      const ms = performance.now() - t0;
      s.requests++;
      s.latencies.push(ms);
      let id: string | undefined;
      if (!answer) {
        s.connErrors++;
        if (s.samples.length < 3) s.samples.push(`connection: ${failure}`);
      } else if (answer.status >= 200 && answer.status < 300) {
        s.ok++;
        id = route.onOk?.(vu, answer.body);
      } else {
        if (answer.status >= 500) s.s5xx++;
        else s.s4xx++;
        if (s.samples.length < 3) s.samples.push(`${answer.status} ${answer.body.toString('utf8').slice(0, 300)}`);
      }
      if (req.write) {
        const outcome = !answer ? 'unknown' : answer.status >= 200 && answer.status < 300 ? 'ack' : 'refused';
        ledger.push({ kind: req.write.kind, marker: req.write.marker, outcome, status: answer?.status ?? 0, id, sourceId: req.write.sourceId, userId: vu.userId });
      }
    }
  };
  const timer = setTimeout(() => onMeasuredStart?.(), warmupSeconds * 1000);
  await Promise.all(users.map(loop));
  clearTimeout(timer);
  return { stats, ledger, measuredSeconds: Math.min(seconds, Math.max(0, (performance.now() - measuredFrom) / 1000)) };
}
