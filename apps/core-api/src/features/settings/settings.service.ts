// Settings (spec 000 Settings, Settings tables): each section reads its one table, with the table's
// defaults when the user has no row yet, and a PUT writes only the fields sent (upserting the row), in
// one transaction when two tables are touched (the UI section's time zone lives on the profile).
// Bodies are validated by the routes' zod schemas (400 naming the field); the rules that need the stored
// row (the read-only email, names derived from full_name) are decided here.
import type { Database } from '@story/db';
import { badRequest, notFound } from '@story/http';
import { VERSION } from '@story/config';
import { enumOptions, SECTIONS, VOICE_SETTINGS_KEYS, type SectionName } from './settings.fields';
import { joinName, MEMORIES_FAMILY_DOWNLOAD_TEXT, profileFields, splitFullName } from './profile.fields';
import { createSettingsRepository, profileColumns, columnDefaults } from './settings.repository';

type Values = Record<string, unknown>;

export interface ProfileInput extends Values {
  email?: string;
  first_name?: string;
  last_name?: string;
  full_name?: string | null;
}

const PROFILE_NAMES = Object.keys(profileFields);

function requireSomething(input: Values): void {
  if (!Object.values(input).some((v) => v !== undefined)) throw badRequest('Send at least one setting to change', { field: 'body' });
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function createSettingsService({ db }: { db: Database }) {
  const repo = createSettingsRepository(db);

  async function readSection(section: SectionName, userId: string) {
    const stored = await repo.readSection(section, userId);
    const settings: Values = { ...stored.values };
    if (section === 'ui') settings['timezone'] = await repo.profileTimezone(userId);
    return { settings, updated_at: iso(stored.updatedAt) };
  }

  async function readProfile(userId: string) {
    const row = await repo.readProfile(userId);
    if (!row) throw notFound('Account');
    const values: Values = row.profile
      ? Object.fromEntries(PROFILE_NAMES.map((name) => [name, (row.profile as Values)[propOf(name)]]))
      : columnDefaults(profileColumns(), PROFILE_NAMES);
    const fullName = (values['full_name'] as string | null | undefined) ?? null;
    return {
      profile: {
        id: userId,
        email: row.email,
        email_verified: row.emailConfirmedAt !== null,
        ...values,
        full_name: fullName,
        ...splitFullName(fullName),
        subscription_tier: row.profile?.subscriptionTier ?? 'free',
        subscription_status: row.profile?.subscriptionStatus ?? null,
        updated_at: iso(row.profile?.updatedAt),
      },
      descriptions: { email: 'Held by sign-in; change it there.', memories_family_download: MEMORIES_FAMILY_DOWNLOAD_TEXT },
    };
  }

  const propKeys = new Map(Object.entries(profileColumns()).map(([key, c]) => [c.name, key]));
  function propOf(name: string): string {
    return propKeys.get(name) ?? name;
  }

  return {
    readSection,

    /** GET /api/settings/voice: exactly the seven fields the spec lists. */
    async readVoice(userId: string) {
      const { settings } = await readSection('voice', userId);
      return { settings: Object.fromEntries(VOICE_SETTINGS_KEYS.map((k) => [k, settings[k]])) };
    },

    async updateSection(section: SectionName, userId: string, input: Values) {
      requireSomething(input);
      const { timezone, ...own } = input;
      await repo.transaction(async (tx) => {
        if (Object.keys(own).length) await repo.upsertSection(section, userId, own, tx);
        if (section === 'ui' && timezone !== undefined) await repo.upsertProfile(userId, { timezone }, tx);
      });
      return readSection(section, userId);
    },

    readProfile,

    async updateProfile(userId: string, input: ProfileInput) {
      requireSomething(input);
      const { email, first_name, last_name, ...fields } = input;
      if ((first_name !== undefined || last_name !== undefined) && fields.full_name !== undefined) {
        throw badRequest('Send full_name or first_name/last_name, not both', { field: 'full_name' });
      }
      await repo.transaction(async (tx) => {
        const current = await repo.readProfile(userId, tx);
        if (!current) throw notFound('Account');
        if (email !== undefined && email.trim().toLowerCase() !== current.email) {
          throw badRequest('The account email is read-only here: it is changed through sign-in, not settings', { field: 'email' });
        }
        const values: Values = { ...fields };
        if (first_name !== undefined || last_name !== undefined) {
          const parts = splitFullName(current.profile?.fullName ?? null);
          values['full_name'] = joinName(first_name ?? parts.first_name, last_name ?? parts.last_name);
        }
        await repo.upsertProfile(userId, values, tx);
      });
      return readProfile(userId);
    },

    /** Every voice setting (the seven plus language and accuracy) and the values each enumerated one allows. */
    async voicePreferences(userId: string) {
      const { settings, updated_at } = await readSection('voice', userId);
      return { preferences: settings, options: enumOptions(SECTIONS.voice.fields), updated_at };
    },

    /** GET /api/settings/app: every section at once, with the allowed values, for a client starting up. */
    async app(userId: string) {
      const read = async (s: SectionName) => (await readSection(s, userId)).settings;
      const sections = { ui: await read('ui'), notifications: await read('notifications'), grammar: await read('grammar'), privacy: await read('privacy'), voice: await read('voice') };
      const options = Object.fromEntries((Object.keys(SECTIONS) as SectionName[]).map((s) => [s, enumOptions(SECTIONS[s].fields)]));
      return {
        app: { service: 'core-api', version: VERSION },
        profile: (await readProfile(userId)).profile,
        settings: sections,
        options: { ...options, profile: enumOptions(profileFields) },
      };
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
