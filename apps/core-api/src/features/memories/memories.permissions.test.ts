// The spec's "Who may see and download" table through the permission-matrix harness: owner, contributor,
// viewer, a removed member and a stranger, with the family switch on and then off.
import { createObjectStorage } from '@story/providers';
import { buildTestApp, type TestContext } from '../../test/helper';
import { allow, createFamilyActors, runPermissionMatrix, type AnyMatrixRoute, type FamilyActors } from '../../test/permission-matrix';
import { newImageRow, newRecordingRow, newStoryRow, setMemoriesProfile } from '../../test/memories-factories';

let t: TestContext;
let actors: FamilyActors;
let ids: { recording: string; image: string; story: string };

beforeAll(async () => {
  t = await buildTestApp();
  actors = await createFamilyActors(t.app, t.database.sql);
  const storage = createObjectStorage(t.config.storage, { publicBaseUrl: 'http://127.0.0.1' });
  const owner = actors.owner.userId;
  const at = new Date('2026-02-02T10:00:00Z');
  ids = {
    recording: (await newRecordingRow(t.database.sql, storage, owner, { at })).id,
    image: (await newImageRow(t.database.sql, storage, owner, { at })).id,
    story: (await newStoryRow(t.database.sql, owner, { at })).id,
  };
}, 60_000);
afterAll(async () => t.close());

const routes = (downloadStatus: number, openStatus: number): AnyMatrixRoute[] => [
  { name: 'list', method: 'GET', url: () => `/api/memories?storytellerId=${actors.owner.userId}`, expect: allow(200, 200, 200) },
  { name: 'play recording', method: 'GET', url: () => `/api/memories/${ids.recording}/media?type=recording`, expect: allow(200, 200, 200) },
  { name: 'open story', method: 'GET', url: () => `/api/memories/${ids.story}/media?type=story`, expect: allow(200, 200, 200) },
  { name: 'download image', method: 'GET', url: () => `/api/memories/${ids.image}/media?type=image&download=true`, expect: allow(200, downloadStatus, downloadStatus) },
  { name: 'open archive', method: 'POST', url: '/api/account/archive', payload: () => ({ storytellerId: actors.owner.userId }), expect: allow(201, openStatus, openStatus) },
];

it('family may see and download while the switch is on; removed members and strangers get 404', async () => {
  expect(await runPermissionMatrix(t.app, actors, routes(200, 201))).toEqual([]);
});

it('with the switch off family still see, but every download is refused with the plain sentence', async () => {
  await setMemoriesProfile(t.database.sql, actors.owner.userId, { familyDownload: false });
  expect(await runPermissionMatrix(t.app, actors, routes(403, 403))).toEqual([]);
});
