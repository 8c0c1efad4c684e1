// The image gallery and audio routes against real PostgreSQL, real local storage and real images made by
// sharp: upload (type from the bytes, 5 MB, GPS removed unless the privacy setting keeps it, thumbnail and
// dimensions), gallery paging, file streaming, delete, bad input (6 MB photo, .exe renamed .jpg) and the
// stored-file quota; audio streaming and share links.
import sharp from 'sharp';
import { signUp, type SignedUp } from '../../test/helper';
import { buildImportsApp, multipart, type ImportsHarness } from '../imports/test/imports.harness';
import { gpsEntryCount } from './exif-gps';

const GPS_EXIF = { IFD0: { Make: 'PhoneMaker' }, IFD2: { DateTimeOriginal: '1978:07:14 15:30:00', OffsetTimeOriginal: '+02:00' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 2650/100', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 3960/100' } };

const photo = (format: 'jpeg' | 'png' | 'webp' = 'jpeg', width = 1200, height = 800) =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .toFormat(format)
    .withExif(GPS_EXIF)
    .toBuffer();

/** A HEIC container head (ftyp brand heic) with an EXIF block carrying GPS: what a phone sends, minus the HEVC pixels. */
async function heicLike(): Promise<Buffer> {
  const jpeg = await photo('jpeg', 16, 16);
  const exifAt = jpeg.indexOf('Exif\0\0', 0, 'latin1');
  const exif = jpeg.subarray(exifAt, exifAt + jpeg.readUInt16BE(exifAt - 2));
  const ftyp = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic', 'latin1'), Buffer.alloc(4), Buffer.from('mif1heic', 'latin1')]);
  return Buffer.concat([ftyp, Buffer.from([0, 0, 0, 8 + 4 + exif.length]), Buffer.from('Exif', 'latin1'), Buffer.alloc(4), exif, Buffer.alloc(256)]);
}

describe('images and audio', () => {
  let h: ImportsHarness;
  let owner: SignedUp;

  beforeAll(async () => {
    h = await buildImportsApp();
    owner = await signUp(h.app);
  }, 30_000);
  afterAll(() => h.close());

  const upload = (file: { filename: string; type: string; data: Buffer }, fields: Record<string, string> = {}, who: SignedUp = owner, provider = 'local') => {
    const body = multipart(file, fields);
    return h.app.inject({ method: 'POST', url: `/api/upload/${provider}`, headers: { ...who.headers, ...body.headers }, payload: body.payload });
  };
  const stored = async (userId = owner.userId) => (await h.storage.list(`images/${userId}`)).objects.map((o) => o.key);
  const rows = async (userId = owner.userId) => Number((await h.database.sql`select count(*)::int as n from images where user_id = ${userId}`)[0]!['n']);
  const readAll = async (key: string) => {
    const chunks: Buffer[] = [];
    for await (const c of (await h.storage.get(key)).body) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  };

  it('stores a JPEG without its GPS location, with dimensions and a WebP thumbnail', async () => {
    const original = await photo('jpeg');
    expect(gpsEntryCount(original)).toBeGreaterThan(0);
    const res = await upload({ filename: 'beach.jpg', type: 'image/jpeg', data: original }, { kind: 'photo', title: 'Beach', caption: 'Brighton, 1978' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ kind: 'photo', title: 'Beach', mimeType: 'image/jpeg', width: 1200, height: 800, sizeBytes: original.length, locationRemoved: true });
    expect(body.takenAt).toBe('1978-07-14T13:30:00.000Z');
    expect(body.image.id).toBe(body.id);
    const [row] = await h.database.sql`select storage_key, thumbnail_key from images where id = ${body.id}`;
    const kept = await readAll(row!['storage_key'] as string);
    expect(gpsEntryCount(kept)).toBe(0);
    expect((await sharp(kept).metadata()).exif?.toString('latin1')).toContain('PhoneMaker');
    const thumb = await sharp(await readAll(row!['thumbnail_key'] as string)).metadata();
    expect(thumb).toMatchObject({ format: 'webp', width: 400, height: 267 });

    const file = await h.app.inject({ method: 'GET', url: `/api/images/${body.id}/file`, headers: owner.headers });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.rawPayload.equals(kept)).toBe(true);
    const part = await h.app.inject({ method: 'GET', url: `/api/images/${body.id}/file`, headers: { ...owner.headers, range: 'bytes=0-9' } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(kept.subarray(0, 10))).toBe(true);
    const small = await h.app.inject({ method: 'GET', url: `/api/images/${body.id}/file?variant=thumbnail`, headers: owner.headers });
    expect(small.headers['content-type']).toBe('image/webp');
  });

  it('keeps the location when the owner\'s privacy setting keep_photo_location is on', async () => {
    const user = await signUp(h.app);
    await h.database.sql`
      insert into user_privacy_settings (user_id, keep_photo_location) values (${user.userId}, true)
      on conflict (user_id) do update set keep_photo_location = true`;
    const original = await photo('png', 50, 40);
    const res = await upload({ filename: 'x.png', type: 'image/png', data: original }, {}, user);
    expect(res.statusCode).toBe(201);
    expect(res.json().locationRemoved).toBe(false);
    const [row] = await h.database.sql`select storage_key from images where id = ${res.json().id}`;
    expect((await readAll(row!['storage_key'] as string)).equals(original)).toBe(true);
  });

  it('accepts WebP and HEIC (judged from the bytes); HEIC is stored without thumbnail and without GPS', async () => {
    const webp = await upload({ filename: 'a.bin', type: 'application/octet-stream', data: await photo('webp', 64, 64) });
    expect(webp.json()).toMatchObject({ mimeType: 'image/webp', width: 64, locationRemoved: true });
    const heic = await heicLike();
    expect(gpsEntryCount(heic)).toBeGreaterThan(0);
    const res = await upload({ filename: 'IMG_0001.HEIC', type: 'image/heic', data: heic }, { kind: 'document' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ mimeType: 'image/heic', kind: 'document', width: null, thumbnailUrl: null, locationRemoved: true });
    const [row] = await h.database.sql`select storage_key from images where id = ${res.json().id}`;
    expect(gpsEntryCount(await readAll(row!['storage_key'] as string))).toBe(0);
  });

  it('refuses an .exe renamed .jpg, a 6 MB photo, a missing file, a bad kind and another provider: 4xx naming the field, no row, no object', async () => {
    const before = { rows: await rows(), keys: (await stored()).length };
    const exe = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(4096, 0x41)]);
    const renamed = await upload({ filename: 'holiday.jpg', type: 'image/jpeg', data: exe });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json().error).toMatch(/^file must be a JPEG, PNG, WebP or HEIC image/);
    const gif = await upload({ filename: 'a.gif', type: 'image/gif', data: await sharp({ create: { width: 4, height: 4, channels: 3, background: 'red' } }).gif().toBuffer() });
    expect(gif.statusCode).toBe(400);

    const six = Buffer.concat([await photo('jpeg', 32, 32), Buffer.alloc(6 * 1024 * 1024)]);
    const big = await upload({ filename: 'big.jpg', type: 'image/jpeg', data: six });
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toMatch(/^file is larger than 5 MB/);

    const badKind = await upload({ filename: 'a.jpg', type: 'image/jpeg', data: await photo('jpeg', 8, 8) }, { kind: 'selfie' });
    expect(badKind.statusCode).toBe(400);
    expect(badKind.json().error).toMatch(/^kind is invalid/);
    const provider = await upload({ filename: 'a.jpg', type: 'image/jpeg', data: await photo('jpeg', 8, 8) }, {}, owner, 's3');
    expect(provider.statusCode).toBe(400);
    expect(provider.json().error).toMatch(/^storage_provider must be local/);
    const body = multipart({ filename: 'a.jpg', type: 'image/jpeg', data: await photo('jpeg', 8, 8) }, {}, 'photo');
    const missing = await h.app.inject({ method: 'POST', url: '/api/upload/local', headers: { ...owner.headers, ...body.headers }, payload: body.payload });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatch(/^file is required/);

    expect(await rows()).toBe(before.rows);
    expect((await stored()).length).toBe(before.keys);
  });

  it('pages the gallery newest first with a cursor and filters by kind; it holds only the caller\'s images', async () => {
    const user = await signUp(h.app);
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await upload({ filename: `p${i}.png`, type: 'image/png', data: await photo('png', 10 + i, 10) }, { kind: i === 0 ? 'art' : 'photo' }, user)).json().id);
    const first = (await h.app.inject({ method: 'GET', url: '/api/images/user-gallery?limit=3', headers: user.headers })).json();
    expect(first.images.map((i: { id: string }) => i.id)).toEqual(ids.slice(2).reverse());
    const second = (await h.app.inject({ method: 'GET', url: `/api/images/user-gallery?limit=3&cursor=${first.nextCursor}`, headers: user.headers })).json();
    expect(second.images.map((i: { id: string }) => i.id)).toEqual(ids.slice(0, 2).reverse());
    expect(second.nextCursor).toBeNull();
    const art = (await h.app.inject({ method: 'GET', url: '/api/images/user-gallery?kind=art', headers: user.headers })).json();
    expect(art.images.map((i: { id: string }) => i.id)).toEqual([ids[0]]);
    const bad = await h.app.inject({ method: 'GET', url: '/api/images/user-gallery?cursor=nonsense', headers: user.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/^cursor/);
  });

  it('deletes an image with its files', async () => {
    const id = (await upload({ filename: 'a.jpg', type: 'image/jpeg', data: await photo('jpeg', 20, 20) })).json().id;
    const [row] = await h.database.sql`select storage_key, thumbnail_key from images where id = ${id}`;
    const res = await h.app.inject({ method: 'DELETE', url: `/api/images/${id}`, headers: owner.headers });
    expect(res.json()).toEqual({ success: true, id });
    expect((await h.database.sql`select 1 from images where id = ${id}`).length).toBe(0);
    expect(await h.storage.head(row!['storage_key'] as string)).toEqual({ exists: false });
    expect(await h.storage.head(row!['thumbnail_key'] as string)).toEqual({ exists: false });
    expect((await h.app.inject({ method: 'GET', url: `/api/images/${id}`, headers: owner.headers })).statusCode).toBe(404);
  });

  it('refuses an image over the stored-file quota with 403 naming the limit; a paid tier has 10 GB', async () => {
    const user = await signUp(h.app);
    await h.database.sql`insert into images (user_id, storage_key, mime_type, size_bytes) values (${user.userId}, 'images/x/y.jpg', 'image/jpeg', ${1024 ** 3 - 50})`;
    const res = await upload({ filename: 'a.jpg', type: 'image/jpeg', data: await photo('jpeg', 20, 20) }, {}, user);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ limit: 'storage', tier: 'free', allowed: 1024 ** 3, upgradeTier: 'starter' });
    expect(await rows(user.userId)).toBe(1);
    expect(await stored(user.userId)).toEqual([]);
    await h.database.sql`update profiles set subscription_tier = 'starter' where id = ${user.userId}`;
    expect((await upload({ filename: 'a.jpg', type: 'image/jpeg', data: await photo('jpeg', 20, 20) }, {}, user)).statusCode).toBe(201);
  });

  it('streams a recording\'s audio by id (Range too) and makes share links', async () => {
    const audio = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(5000, 7)]);
    const key = `recordings/${owner.userId}/2026/01/a.mp3`;
    await h.storage.put(key, audio, { contentType: 'audio/mpeg' });
    const [rec] = await h.database.sql`insert into recordings (user_id, title, storage_key, mime_type, original_file_size_bytes) values (${owner.userId}, 'Voice', ${key}, 'audio/mpeg', ${audio.length}) returning id`;
    const res = await h.app.inject({ method: 'GET', url: `/api/audio/${rec!['id']}`, headers: owner.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mpeg');
    expect(res.rawPayload.equals(audio)).toBe(true);
    const range = await h.app.inject({ method: 'GET', url: `/api/audio/${rec!['id']}`, headers: { ...owner.headers, range: 'bytes=100-199' } });
    expect(range.statusCode).toBe(206);
    expect(range.rawPayload.equals(audio.subarray(100, 200))).toBe(true);

    const share = await h.app.inject({ method: 'POST', url: `/api/audio/${rec!['id']}/share`, headers: owner.headers, payload: { expiresInDays: 7 } });
    expect(share.statusCode).toBe(201);
    const body = share.json();
    expect(body.share.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(body.shareUrl).toBe(`/api/share/${body.share.token}`);
    const [row] = await h.database.sql`select recording_id, created_by, token, expires_at from audio_shares where id = ${body.share.id}`;
    expect(row).toMatchObject({ recording_id: rec!['id'], created_by: owner.userId, token: body.share.token });
    expect(new Date(row!['expires_at'] as string).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    expect((await h.app.inject({ method: 'GET', url: '/api/audio/00000000-0000-4000-8000-000000000000', headers: owner.headers })).statusCode).toBe(404);
  });
});
