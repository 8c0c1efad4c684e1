// Who may see and download a storyteller's memories (spec 000 "Who may see and download"): the storyteller
// always; an active member of a family group the storyteller belongs to may see always and download only
// while profiles.memories_family_download is true; anyone else gets 404. Read on every request (never
// cached), so turning the switch off stops the next download at once, also of an archive opened before.
import { notFound } from '@story/http';
import type { AccessPolicy } from '../access/access.policy';
import { FAMILY_DOWNLOAD_OFF, familyDownloadOff } from '../access/family-download';
import type { MemoriesRepository } from './memories.repository';

/** The plain-sentence refusal of spec 000 Errors 3 (one sentence for every download route). */
export { FAMILY_DOWNLOAD_OFF };

export interface Viewing {
  storyteller: { id: string; name: string; timezone: string; familyDownload: boolean };
  /** The viewer is the storyteller. */
  self: boolean;
  canDownload: boolean;
}

export function createMemoriesAccess({ access, repo }: { access: Pick<AccessPolicy, 'roleFor' | 'visibleOwners'>; repo: Pick<MemoriesRepository, 'storyteller' | 'storytellers'> }) {
  return {
    /** 404 (naming `what`) unless the viewer may see this storyteller's memories. */
    async view(viewerId: string, storytellerId: string, what = 'Storyteller'): Promise<Viewing> {
      const self = viewerId === storytellerId;
      if (!self && !(await access.roleFor(viewerId, storytellerId))) throw notFound(what);
      const storyteller = await repo.storyteller(storytellerId);
      if (!storyteller) throw notFound(what);
      return { storyteller, self, canDownload: self || storyteller.familyDownload };
    },

    /** 403 with the plain sentence when a family member asks to download while the switch is off. */
    requireDownload(viewing: Viewing): void {
      if (!viewing.canDownload) throw familyDownloadOff();
    },

    /** The chooser: every storyteller the viewer may see, the viewer first. */
    async choices(viewerId: string): Promise<{ id: string; name: string; self: boolean; canDownload: boolean }[]> {
      const ids = await access.visibleOwners(viewerId);
      const rows = await repo.storytellers(ids);
      return rows
        .map((r) => ({ id: r.id, name: r.name, self: r.id === viewerId, canDownload: r.id === viewerId || r.familyDownload }))
        .sort((a, b) => Number(b.self) - Number(a.self) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
    },
  };
}

export type MemoriesAccess = ReturnType<typeof createMemoriesAccess>;
