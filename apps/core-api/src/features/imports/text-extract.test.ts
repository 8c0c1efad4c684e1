// Type from the bytes and text out of documents: plain text encodings, binary refused, HTML reduced to
// text, and a zip bomb dressed as a Word document refused before it is unpacked in memory.
import { ZipFile } from 'yazl';
import { decodeText, detectImportType, DOCX_MAX_UNPACKED, extractDocument, extractPage, UnreadableDocumentError } from './text-extract';

function zip(entries: { name: string; data: Buffer }[]): Promise<Buffer> {
  const z = new ZipFile();
  for (const e of entries) z.addBuffer(e.data, e.name, { compress: true });
  z.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    z.outputStream.on('data', (c: Buffer) => chunks.push(c));
    z.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    z.outputStream.on('error', reject);
  });
}

describe('text extraction', () => {
  it('reads UTF-8 (with BOM) and Windows-1252 text, refuses binary', () => {
    expect(decodeText(Buffer.from('\uFEFFCafé memories\n', 'utf8'))).toBe('Café memories\n');
    expect(decodeText(Buffer.from([0x43, 0x61, 0x66, 0xe9]))).toBe('Café');
    expect(decodeText(Buffer.from([0x41, 0x00, 0x42]))).toBeNull();
  });

  it('refuses a zip bomb named docx before unpacking it whole', async () => {
    const bomb = await zip([
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
      { name: 'word/document.xml', data: Buffer.alloc(DOCX_MAX_UNPACKED + 1024 * 1024, 0x20) },
    ]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(await detectImportType(bomb)).toBe('docx');
    const started = Date.now();
    await expect(extractDocument('docx', bomb)).rejects.toThrow(new UnreadableDocumentError('This Word document unpacks to more than 64 MB'));
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('reduces HTML to text and refuses other content types', () => {
    const page = extractPage('text/html; charset=utf-8', Buffer.from('<title>T</title><h1>Head</h1><p>Body <a href="http://x">link</a></p><script>bad()</script>'));
    expect(page.title).toBe('T');
    expect(page.text).toContain('HEAD');
    expect(page.text).toContain('Body link');
    expect(page.text).not.toContain('bad()');
    expect(() => extractPage('application/octet-stream', Buffer.from('x'))).toThrow(UnreadableDocumentError);
  });
});
