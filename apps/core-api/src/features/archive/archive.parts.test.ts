import { testEnv } from '@story/testing';
import { loadConfig } from '../../config';
import { inPart, planParts } from './archive.parts';
import type { Folder, FolderItem } from './archive.repository';

const item = (i: number, size: number): FolderItem => ({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, at: `2026-01-01T00:00:${String(i).padStart(2, '0')}.000000Z`, title: `t${i}`, storageKey: `k${i}`, mimeType: 'audio/mpeg', size });
const folders = (over: Partial<Record<Folder, FolderItem[]>>): Record<Folder, FolderItem[]> => ({ book: [], stories: [], recordings: [], videos: [], photos: [], ...over });

it('offers one zip up to the limit, folder zips over it, and splits a big folder greedily without losing or repeating a file', () => {
  expect(planParts(folders({ recordings: [item(1, 400), item(2, 600)] }), 1000)).toMatchObject({ singleZip: true, totalBytes: 1000, parts: [{ name: 'all', count: 2 }] });
  const items = [item(1, 400), item(2, 500), item(3, 300), item(4, 2500), item(5, 100)];
  const plan = planParts(folders({ recordings: items, photos: [item(9, 10)] }), 1000);
  expect(plan.singleZip).toBe(false);
  expect(plan.parts.map((p) => [p.name, p.count, p.bytes])).toEqual([
    ['recordings-1', 2, 900],
    ['recordings-2', 1, 300],
    ['recordings-3', 1, 2500], // a file over the limit alone: its own part, the only way to download it
    ['recordings-4', 1, 100],
    ['photos', 1, 10],
  ]);
  const recordingParts = plan.parts.filter((p) => p.folder === 'recordings');
  for (const it of items) expect(recordingParts.filter((p) => inPart(it, p))).toHaveLength(1);
  // A later deletion does not move the others: membership is by the stored boundaries.
  expect(recordingParts.filter((p) => inPart(items[2]!, p)).map((p) => p.name)).toEqual(['recordings-2']);
});

it('reads ARCHIVE_PART_MAX_BYTES as whole bytes, default 1 GB', () => {
  expect(loadConfig(testEnv({})).limits.archivePartBytes).toBe(1_000_000_000);
  expect(loadConfig(testEnv({ ARCHIVE_PART_MAX_BYTES: '5000' })).limits.archivePartBytes).toBe(5000);
  for (const bad of ['1e9', '-5', '12abc', '10']) expect(() => loadConfig(testEnv({ ARCHIVE_PART_MAX_BYTES: bad }))).toThrow(/ARCHIVE_PART_MAX_BYTES/);
});
