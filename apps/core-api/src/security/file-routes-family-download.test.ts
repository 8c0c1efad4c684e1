// The family download switch on every route that answers a file (spec 000 "Who may see and download").
//
// The list of file routes is not written by hand: every route core-api registers is collected with an
// onRoute hook, and a route whose success answer is not a JSON document (a z.any() body, a binary media
// type) is a file route. Each must have a row in FILE_ROUTES saying how it treats a family member, and a
// scenario proving it with the switch off and on; a new file route without a row fails the first test.
//
// The rule the rows prove: a download (an attachment) of a storyteller's file by a family member is refused
// with the memories route's plain sentence while profiles.memories_family_download is false; playing or
// opening in place stays allowed (spec: "they can still play and open memories") and is never an attachment;
// routes serving only the caller's own files answer 404 to anyone else.
import type { RouteOptions } from 'fastify';
import type { z } from 'zod';
import { createObjectStorage, type ObjectStorage } from '@story/providers';
import { FAMILY_DOWNLOAD_OFF } from '../features/access/family-download';
import { newBookWithExport, newImageRow, newRecordingRow, newStoryRow, setMemoriesProfile } from '../test/memories-factories';
import { buildTestApp, type TestContext } from '../test/helper';
import { createFamilyActors, type Actor, type FamilyActors } from '../test/permission-matrix';

const collected: RouteOptions[] = [];
jest.mock('@story/http', () => {
  const actual = jest.requireActual<typeof import('@story/http')>('@story/http');
  return {
    ...actual,
    createServiceApp: async (...args: Parameters<typeof actual.createServiceApp>) => {
      const service = await actual.createServiceApp(...args);
      service.app.addHook('onRoute', (route) => {
        collected.push(route);
      });
      return service;
    },
  };
});

const JSON_TYPES = new Set(['object', 'array', 'union', 'intersection', 'record', 'literal', 'null', 'boolean', 'number', 'pipe', 'lazy', 'nullable', 'optional']);

/** True when a declared success answer is not a JSON document: a z.any()/z.unknown()/string body or a non-JSON media type. */
function isFileAnswer(schema: unknown): boolean {
  if (!schema || typeof schema !== 'object') return false;
  const content = (schema as { content?: Record<string, unknown> }).content;
  if (content && typeof content === 'object') return Object.keys(content).some((type) => !/^application\/([\w.+-]+\+)?json\b/.test(type));
  const zod = (schema as { _zod?: { def?: { type?: string } } })._zod;
  if (zod?.def?.type) return !JSON_TYPES.has(zod.def.type);
  // A plain JSON schema.
  const type = (schema as { type?: string }).type;
  return type === 'string' && (schema as { format?: string }).format === 'binary';
}

function fileRoutes(routes: RouteOptions[]): string[] {
  const out = new Set<string>();
  for (const route of routes) {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
    const responses = (route.schema?.response ?? {}) as Record<string, z.ZodType | object>;
    const success = Object.entries(responses).filter(([status]) => /^2/.test(status)).map(([, s]) => s);
    const produces = (route.schema as { produces?: string[] } | undefined)?.produces ?? [];
    if (success.some(isFileAnswer) || produces.some((p) => !p.includes('json'))) for (const m of methods) out.add(`${m} ${route.url}`);
  }
  return [...out].sort();
}

let t: TestContext;
let actors: FamilyActors;
let storage: ObjectStorage;
let ids: { recording: string; image: string; story: string; bookId: string; exportId: string; fileId: string; shareToken: string; ownerExport: string };

beforeAll(async () => {
  t = await buildTestApp();
  actors = await createFamilyActors(t.app, t.database.sql);
  storage = createObjectStorage(t.config.storage, { publicBaseUrl: 'http://127.0.0.1' });
  const owner = actors.owner.userId;
  const at = new Date('2026-03-03T10:00:00Z');
  const recording = await newRecordingRow(t.database.sql, storage, owner, { at });
  const image = await newImageRow(t.database.sql, storage, owner, { at });
  const story = await newStoryRow(t.database.sql, owner, { at });
  const book = await newBookWithExport(t.database.sql, storage, owner, { at, title: 'Grandma' });
  const fileKey = `user-files/${owner}/notes.pdf`;
  await storage.put(fileKey, Buffer.from('%PDF-1.4 notes'));
  const [file] = await t.database.sql<{ id: string }[]>`
    insert into user_files (user_id, storage_key, folder, file_name, content_type, size_bytes)
    values (${owner}, ${fileKey}, 'documents', 'notes.pdf', 'application/pdf', 14) returning id`;
  const share = await t.app.inject({ method: 'POST', url: `/api/audio/${recording.id}/share`, headers: actors.owner.headers, payload: {} });
  expect(share.statusCode).toBeLessThan(300);
  const exported = await t.app.inject({ method: 'POST', url: '/api/user/export-data', headers: actors.owner.headers, payload: { format: 'json' } });
  expect(exported.statusCode).toBe(202);
  ids = {
    recording: recording.id,
    image: image.id,
    story: story.id,
    bookId: book.bookId,
    exportId: book.exportId,
    fileId: file!.id,
    shareToken: share.json().share?.token ?? share.json().token,
    ownerExport: exported.json().id,
  };
}, 90_000);
afterAll(async () => t.close());

const get = (url: string, actor?: Actor) => t.app.inject({ method: 'GET', url, headers: actor?.headers ?? {} });
const family = () => [actors.contributor, actors.viewer];

/** A download of the owner's file: the owner always; family only while the switch is on, else 403 + the sentence. */
async function expectDownload(url: string, switchOn: boolean): Promise<void> {
  const own = await get(url, actors.owner);
  expect([own.statusCode, url]).toEqual([200, url]);
  for (const member of family()) {
    const res = await get(url, member);
    if (switchOn) {
      expect([res.statusCode, url]).toEqual([200, url]);
    } else {
      expect([res.statusCode, url]).toEqual([403, url]);
      expect(res.json()).toEqual({ error: FAMILY_DOWNLOAD_OFF });
    }
  }
  for (const outsider of [actors.removed, actors.stranger]) expect([(await get(url, outsider)).statusCode, url]).toEqual([404, url]);
}

/** Playing or opening in place: sight is enough, switch or not, and the answer is never an attachment. */
async function expectPlayInPlace(url: string): Promise<void> {
  for (const actor of [actors.owner, ...family()]) {
    const res = await get(url, actor);
    expect([res.statusCode, url]).toEqual([200, url]);
    expect(String(res.headers['content-disposition'] ?? '')).toMatch(/^inline\b/);
  }
  for (const outsider of [actors.removed, actors.stranger]) expect([(await get(url, outsider)).statusCode, url]).toEqual([404, url]);
}

/** The caller's own files only: the owner gets it, everyone else (family included) the stranger's 404. */
async function expectOwnOnly(url: string, ownerStatus: number[] = [200]): Promise<void> {
  expect(ownerStatus).toContain((await get(url, actors.owner)).statusCode);
  for (const actor of [...family(), actors.removed, actors.stranger]) expect([(await get(url, actor)).statusCode, url]).toEqual([404, url]);
}

/** Audio synthesised from the caller's own text: the route names no stored object of anyone's (no id, key or URL). */
async function expectGeneratedFromRequest(route: string): Promise<void> {
  const [method, url] = route.split(' ');
  const found = collected.filter((r) => r.url === url && (Array.isArray(r.method) ? r.method : [r.method]).includes(method as never));
  expect(found.length).toBe(1);
  const schema = found[0]!.schema as { params?: unknown; querystring?: unknown; body?: unknown };
  const keys = [schema.params, schema.querystring, schema.body].flatMap((s) => Object.keys((s as { shape?: object } | undefined)?.shape ?? {}));
  expect(keys).toContain('text');
  expect(keys.filter((k) => /(id|key|token|url|path)$/i.test(k) && !/^(voice|model)_?id$/i.test(k))).toEqual([]);
}

type Scenario = (switchOn: boolean) => Promise<void>;

/** Every core-api route that answers a file, and how it treats a family member. */
const FILE_ROUTES: Record<string, { kind: 'download' | 'play' | 'play+download' | 'own' | 'share-link' | 'generated'; run: Scenario }> = {
  'GET /api/books/:bookId/exports/:jobId/download': {
    kind: 'download',
    run: async (on) => {
      await expectDownload(`/api/books/${ids.bookId}/exports/${ids.exportId}/download`, on);
      // The refusal does not depend on the export existing.
      if (!on) expect((await get(`/api/books/${ids.bookId}/exports/00000000-0000-4000-8000-000000000000/download`, actors.viewer)).json()).toEqual({ error: FAMILY_DOWNLOAD_OFF });
    },
  },
  'GET /api/memories/:id/media': {
    kind: 'play+download',
    run: async (on) => {
      await expectPlayInPlace(`/api/memories/${ids.recording}/media?type=recording`);
      await expectPlayInPlace(`/api/memories/${ids.exportId}/media?type=export`);
      await expectDownload(`/api/memories/${ids.recording}/media?type=recording&download=true`, on);
      await expectDownload(`/api/memories/${ids.image}/media?type=image&download=true`, on);
      await expectDownload(`/api/memories/${ids.exportId}/media?type=export&download=true`, on);
      await expectDownload(`/api/memories/${ids.story}/media?type=story&download=true`, on);
    },
  },
  'GET /api/account/archive/:jobId/download': {
    kind: 'download',
    run: async (on) => {
      // Each person downloads the job they opened; a family member's job was opened while the switch was on.
      await setMemoriesProfile(t.database.sql, actors.owner.userId, { familyDownload: true });
      const jobs = new Map<string, string>();
      for (const actor of [actors.owner, ...family()]) {
        const res = await t.app.inject({ method: 'POST', url: '/api/account/archive', headers: actor.headers, payload: { storytellerId: actors.owner.userId } });
        expect(res.statusCode).toBe(201);
        jobs.set(actor.userId, res.json().job?.id ?? res.json().jobId ?? res.json().id);
      }
      await setMemoriesProfile(t.database.sql, actors.owner.userId, { familyDownload: on });
      expect((await get(`/api/account/archive/${jobs.get(actors.owner.userId)}/download?part=all`, actors.owner)).statusCode).toBe(200);
      for (const member of family()) {
        const res = await get(`/api/account/archive/${jobs.get(member.userId)}/download?part=all`, member);
        expect(res.statusCode).toBe(on ? 200 : 403);
        if (!on) expect(res.json()).toEqual({ error: FAMILY_DOWNLOAD_OFF });
      }
    },
  },
  'GET /api/recordings/:id/audio': { kind: 'play', run: async () => expectPlayInPlace(`/api/recordings/${ids.recording}/audio`) },
  'GET /api/audio/:fileId': { kind: 'play', run: async () => expectPlayInPlace(`/api/audio/${ids.recording}`) },
  'GET /api/images/:imageId/file': {
    kind: 'play',
    run: async () => expectPlayInPlace(`/api/images/${ids.image}/file`),
  },
  'GET /api/share/:token/audio': {
    kind: 'share-link',
    run: async () => {
      // A link only the storyteller can make (a family member cannot share the storyteller's recording),
      // played in place by whoever holds it.
      for (const member of family()) {
        const res = await t.app.inject({ method: 'POST', url: `/api/audio/${ids.recording}/share`, headers: member.headers, payload: {} });
        expect([403, 404]).toContain(res.statusCode);
      }
      const res = await get(`/api/share/${ids.shareToken}/audio`);
      expect(res.statusCode).toBe(200);
      expect(String(res.headers['content-disposition'])).toMatch(/^inline\b/);
    },
  },
  'GET /api/upload/files/:fileId': { kind: 'own', run: async () => expectOwnOnly(`/api/upload/files/${ids.fileId}`) },
  'GET /api/user/data-exports/:id/download': { kind: 'own', run: async () => expectOwnOnly(`/api/user/data-exports/${ids.ownerExport}/download`, [200, 202]) },
  'POST /api/tts/:provider': { kind: 'generated', run: async () => expectGeneratedFromRequest('POST /api/tts/:provider') },
  'PUT /api/tts/:provider': { kind: 'generated', run: async () => expectGeneratedFromRequest('PUT /api/tts/:provider') },
  'POST /api/conversation/tts': { kind: 'generated', run: async () => expectGeneratedFromRequest('POST /api/conversation/tts') },
  // The caller's newest export of their own data: there is no other person's id to ask for.
  'GET /api/user/data-export': { kind: 'own', run: async () => expect([200, 202]).toContain((await get('/api/user/data-export?format=json', actors.viewer)).statusCode) },
};

it('finds every route that answers a file, and each has a row here', () => {
  const found = fileRoutes(collected);
  // The collection is real: the known file routes are among them.
  expect(found).toEqual(expect.arrayContaining(['GET /api/books/:bookId/exports/:jobId/download', 'GET /api/memories/:id/media', 'GET /api/recordings/:id/audio']));
  expect(found.filter((r) => !(r in FILE_ROUTES))).toEqual([]);
  expect(Object.keys(FILE_ROUTES).filter((r) => !found.includes(r))).toEqual([]);
});

describe.each([
  ['on', true],
  ['off', false],
])('with the family download switch %s', (_label, on) => {
  beforeAll(async () => setMemoriesProfile(t.database.sql, actors.owner.userId, { familyDownload: on }));
  it.each(Object.keys(FILE_ROUTES))('%s treats a family member as its row says', async (route) => {
    await setMemoriesProfile(t.database.sql, actors.owner.userId, { familyDownload: on });
    await FILE_ROUTES[route]!.run(on);
  });
});
