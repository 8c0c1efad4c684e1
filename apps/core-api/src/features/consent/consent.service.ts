// Consent (spec 000 Consent record; CONTRACTS §9): the current choice is the newest row of the user's
// append-only history, so every change is kept as proof of what was agreed when. Before any choice
// every consent is false and lastUpdated is null. An update sends any of the three booleans; the others
// keep their current value. A new row is written only when something changes.
import type { Database } from '@story/db';
import { badRequest } from '@story/http';
import { createConsentRepository, type ConsentRow } from './consent.repository';

export interface ConsentInput {
  marketing?: boolean;
  analytics?: boolean;
  thirdParty?: boolean;
  source?: string;
}

const NONE = { marketing: false, analytics: false, thirdParty: false };

function view(row: ConsentRow | undefined) {
  return {
    consents: row ? { marketing: row.marketing, analytics: row.analytics, thirdParty: row.thirdParty } : { ...NONE },
    lastUpdated: row ? row.createdAt.toISOString() : null,
  };
}

export function createConsentService({ db }: { db: Database }) {
  const repo = createConsentRepository(db);
  return {
    async status(userId: string) {
      return view(await repo.latest(userId));
    },

    async update(userId: string, input: ConsentInput, ipPrefix: string | null) {
      const { source, ...choices } = input;
      if (!Object.values(choices).some((v) => v !== undefined)) {
        throw badRequest('Send at least one of marketing, analytics, thirdParty', { field: 'body' });
      }
      return repo.transaction(async (tx) => {
        await repo.lockUser(userId, tx);
        const current = await repo.latest(userId, tx);
        const base = current ?? { ...NONE };
        const next = {
          marketing: choices.marketing ?? base.marketing,
          analytics: choices.analytics ?? base.analytics,
          thirdParty: choices.thirdParty ?? base.thirdParty,
        };
        const unchanged = current && next.marketing === current.marketing && next.analytics === current.analytics && next.thirdParty === current.thirdParty;
        const row = unchanged ? current : await repo.append({ userId, ...next, source: source ?? 'settings', ipPrefix }, tx);
        return { success: true as const, changed: !unchanged, ...view(row) };
      });
    },

    async history(userId: string, limit: number) {
      const rows = await repo.history(userId, limit);
      return {
        history: rows.map((r) => ({ marketing: r.marketing, analytics: r.analytics, thirdParty: r.thirdParty, source: r.source, changedAt: r.createdAt.toISOString() })),
      };
    },
  };
}

export type ConsentService = ReturnType<typeof createConsentService>;
