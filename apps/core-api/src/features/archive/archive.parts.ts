// Which zips an archive is offered as (spec 000 Archive 6, and beyond it): the whole archive in one zip when
// the estimate is at most the part limit (1 GB), else one zip per folder, and a folder over the limit split
// into numbered parts (`recordings-1`, `recordings-2`, ...) of at most the limit each. Parts are fixed when
// the job opens, as the (at, id) of each part's first item, so later deletions never move a file between parts.
import { FOLDERS, type Folder, type FolderItem } from './archive.repository';

export interface PartSpec {
  name: string;
  folder: Folder | 'all';
  count: number;
  bytes: number;
  /** Sort key of the part's first item (split parts after the first). */
  from?: ItemKey;
  /** Sort key of the next part's first item: this part holds items before it. */
  until?: ItemKey;
}

export interface ItemKey {
  at: string;
  id: string;
}

/** Items compare by (at, id): `at` is fixed-width ISO with microseconds, so text order is time order. */
export const compareKeys = (a: ItemKey, b: ItemKey): number => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function inPart(item: ItemKey, part: PartSpec): boolean {
  if (part.from && compareKeys(item, part.from) < 0) return false;
  if (part.until && compareKeys(item, part.until) >= 0) return false;
  return true;
}

/** What one item adds to its folder, by the database's sizes (the estimate of spec Archive 1). */
export function estimatedBytes(folder: Folder, item: FolderItem): number {
  if (folder === 'stories') {
    const text = item.story?.content ?? item.story?.responseText ?? '';
    return Buffer.byteLength(text) + 1500; // the page's markup and style
  }
  const transcript = item.transcript ? Buffer.byteLength(item.transcript) : 0;
  return (item.size ?? 0) + transcript;
}

export interface PartPlan {
  singleZip: boolean;
  totalBytes: number;
  itemCount: number;
  byFolder: Record<Folder, { count: number; bytes: number }>;
  parts: PartSpec[];
}

export function planParts(items: Record<Folder, FolderItem[]>, limitBytes: number): PartPlan {
  const byFolder = {} as PartPlan['byFolder'];
  let totalBytes = 0;
  let itemCount = 0;
  for (const folder of FOLDERS) {
    const bytes = items[folder].reduce((sum, item) => sum + estimatedBytes(folder, item), 0);
    byFolder[folder] = { count: items[folder].length, bytes };
    totalBytes += bytes;
    itemCount += items[folder].length;
  }
  const singleZip = totalBytes <= limitBytes;
  const parts: PartSpec[] = [];
  if (singleZip) parts.push({ name: 'all', folder: 'all', count: itemCount, bytes: totalBytes });
  else {
    for (const folder of FOLDERS) {
      if (!items[folder].length) continue;
      const groups: { items: FolderItem[]; bytes: number }[] = [];
      for (const item of items[folder]) {
        const size = estimatedBytes(folder, item);
        const current = groups[groups.length - 1];
        // A file larger than the limit on its own still gets a part (the only way it can be downloaded).
        if (!current || (current.bytes + size > limitBytes && current.items.length > 0)) groups.push({ items: [item], bytes: size });
        else {
          current.items.push(item);
          current.bytes += size;
        }
      }
      groups.forEach((group, i) => {
        const first = group.items[0]!;
        const next = groups[i + 1]?.items[0];
        parts.push({
          name: groups.length === 1 ? folder : `${folder}-${i + 1}`,
          folder,
          count: group.items.length,
          bytes: group.bytes,
          from: i > 0 ? { at: first.at, id: first.id } : undefined,
          until: next ? { at: next.at, id: next.id } : undefined,
        });
      });
    }
  }
  return { singleZip, totalBytes, itemCount, byFolder, parts };
}
