// Location removal on real images made by sharp (libvips writes the EXIF): JPEG, PNG and WebP keep
// decoding, keep their other EXIF fields, and lose every GPS entry; an image without EXIF is unchanged.
import sharp from 'sharp';
import { exifTakenAt, gpsEntryCount, stripLocation } from './exif-gps';

const EXIF = { IFD0: { Make: 'PhoneMaker', Model: 'Pocket 9' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 2650/100', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 3960/100' } };

async function photo(format: 'jpeg' | 'png' | 'webp'): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 80, b: 20 } } })
    .toFormat(format)
    .withExif(EXIF)
    .toBuffer();
}

describe('stripLocation', () => {
  it.each(['jpeg', 'png', 'webp'] as const)('empties the GPS directory of a %s and keeps the rest', async (format) => {
    const original = await photo(format);
    expect(gpsEntryCount(original)).toBeGreaterThanOrEqual(4);
    const { buffer, removed } = stripLocation(original);
    expect(removed).toBeGreaterThanOrEqual(4);
    expect(gpsEntryCount(buffer)).toBe(0);
    expect(buffer.length).toBe(original.length);
    const meta = await sharp(buffer).metadata();
    expect(meta).toMatchObject({ width: 64, height: 48, format });
    expect(meta.exif?.toString('latin1')).toContain('PhoneMaker');
    // It still decodes to the same pixels.
    const [a, b] = await Promise.all([sharp(original).raw().toBuffer(), sharp(buffer).raw().toBuffer()]);
    expect(b.equals(a)).toBe(true);
  });

  it('blanks XMP location fields without moving a byte', () => {
    const xmp = Buffer.from('<x:xmpmeta><rdf:RDF><rdf:Description exif:GPSLatitude="51,30.44N" exif:GPSLongitude="0,7.66W" tiff:Make="X"/></rdf:RDF></x:xmpmeta>', 'latin1');
    const out = stripLocation(xmp);
    expect(out.removed).toBe(2);
    expect(out.buffer.length).toBe(xmp.length);
    expect(out.buffer.toString('latin1')).not.toMatch(/51,30|GPS/);
    expect(out.buffer.toString('latin1')).toContain('tiff:Make="X"');
  });

  it('leaves an image without location as it was', async () => {
    const plain = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'blue' } }).jpeg().toBuffer();
    const out = stripLocation(plain);
    expect(out.removed).toBe(0);
    expect(out.buffer.equals(plain)).toBe(true);
  });
});

describe('exifTakenAt', () => {
  const shot = (exif: Record<string, Record<string, string>>) => sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } }).jpeg().withExif(exif).toBuffer();

  it('reads DateTimeOriginal with its offset, else as UTC, else IFD0 DateTime; none gives null', async () => {
    expect(exifTakenAt(await shot({ IFD2: { DateTimeOriginal: '1978:07:14 15:30:00', OffsetTimeOriginal: '+02:00' } }))?.toISOString()).toBe('1978-07-14T13:30:00.000Z');
    expect(exifTakenAt(await shot({ IFD2: { DateTimeOriginal: '1990:01:02 03:04:05' } }))?.toISOString()).toBe('1990-01-02T03:04:05.000Z');
    expect(exifTakenAt(await shot({ IFD0: { DateTime: '2001:02:03 04:05:06' } }))?.toISOString()).toBe('2001-02-03T04:05:06.000Z');
    expect(exifTakenAt(await shot({ IFD0: { DateTime: '0000:00:00 00:00:00' } }))).toBeNull();
    expect(exifTakenAt(await sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } }).jpeg().toBuffer())).toBeNull();
  });
});
