// The family download switch (spec 000 "Who may see and download"): the storyteller always downloads; a
// family member who may see the storyteller's content downloads only while profiles.memories_family_download
// is true. Every route that hands one of a storyteller's files over as a download asks here, on every
// request (never cached), so turning the switch off stops the next download at once. Playing or opening in
// place needs sight only (the access policy), never this.
import type { Sql } from 'postgres';
import { AppError } from '@story/http';

/** The plain-sentence refusal of spec 000 Errors 3, the same on every download route. */
export const FAMILY_DOWNLOAD_OFF =
  'Downloads for family members are turned off for these memories. You can still play and open every memory.';

/** The refusal itself: 403 in core-api's error shape with the sentence. */
export const familyDownloadOff = () => new AppError('forbidden', FAMILY_DOWNLOAD_OFF);

export function createFamilyDownloadGate({ sql }: { sql: Sql }) {
  return {
    /**
     * Call after the access policy granted sight of `ownerId`'s content: throws 403 with the sentence when
     * the caller is someone else and the owner has turned family downloads off. A missing profile row
     * means the default (on).
     */
    async require(callerId: string, ownerId: string): Promise<void> {
      if (callerId === ownerId) return;
      const [row] = await sql<{ on: boolean }[]>`
        select coalesce((select memories_family_download from profiles where id = ${ownerId}), true) as on`;
      if (!row?.on) throw familyDownloadOff();
    },
  };
}

export type FamilyDownloadGate = ReturnType<typeof createFamilyDownloadGate>;
