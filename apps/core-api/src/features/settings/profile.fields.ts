// The profile section (spec 000 Profile, Settings): the writable profile columns under their spec names,
// the names derived from full_name, and the read-only facts shown beside them.
//
// Decisions:
// - The account email belongs to the authentication system and is read-only here: sending the current
//   address back is ignored (a client may PUT what it read), sending a different one is a 400 naming email.
// - first_name and last_name are derived by splitting full_name at its first run of spaces. A PUT may send
//   them instead of full_name: the name is rebuilt from them (a missing half keeps its current value).
//   Sending full_name together with either is refused, since the two could disagree.
// - Subscription, onboarding and payment fields are not settings: sending them is a 400 (unknown field).
import { z } from 'zod';
import { timezoneField } from './timezone';

export const PREFERRED_METHODS = ['voice', 'text', 'mixed'] as const;
export const TECHNOLOGY_COMFORTS = ['not_comfortable', 'somewhat_comfortable', 'very_comfortable'] as const;

const optionalText = (max: number) => z.string().trim().max(max, `at most ${max} characters`).nullable();

export const profileFields = {
  full_name: optionalText(200),
  display_name: optionalText(100),
  phone: z
    .string()
    .trim()
    .max(40, 'at most 40 characters')
    .regex(/^\+?[0-9 ().-]{3,40}$/, 'must be a phone number (digits, spaces, + ( ) . -)')
    .nullable(),
  bio: optionalText(2000),
  avatar_url: z
    .string()
    .max(2000, 'at most 2000 characters')
    .refine((v) => /^https?:\/\//i.test(v) && URL.canParse(v), { message: 'must be an http or https URL' })
    .nullable(),
  relationship_role: optionalText(50),
  birth_year: z
    .number()
    .int('must be a whole number')
    .min(1850, 'at least 1850')
    .refine((y) => y <= new Date().getUTCFullYear(), { message: 'cannot be in the future' })
    .nullable(),
  preferred_method: z.enum(PREFERRED_METHODS),
  technology_comfort: z.enum(TECHNOLOGY_COMFORTS),
  timezone: timezoneField,
  memories_family_download: z.boolean(),
};

export const nameParts = {
  first_name: z.string().trim().min(1, 'cannot be empty').max(100, 'at most 100 characters'),
  last_name: z.string().trim().max(100, 'at most 100 characters'),
};

/** What the settings page says beside the family-download switch (spec 000 "Who may see and download"). */
export const MEMORIES_FAMILY_DOWNLOAD_TEXT =
  'Let family members download my memories. While this is on, people in my family groups may download the archive of ' +
  'everything I have added; while it is off they can still see, play and open my memories but cannot download them. ' +
  'This switch is the whole of the legacy arrangement: there is no custodian to name, no proof of death to give, no ' +
  'waiting period and no one to notify; what happens to the account, subscription and storage afterwards is not arranged here.';

/** First and last name from full_name: the first word, then the rest ("Mary Ann Smith" → Mary, Ann Smith). */
export function splitFullName(fullName: string | null): { first_name: string; last_name: string } {
  const trimmed = (fullName ?? '').trim();
  if (!trimmed) return { first_name: '', last_name: '' };
  const [first, ...rest] = trimmed.split(/\s+/);
  return { first_name: first ?? '', last_name: rest.join(' ') };
}

export function joinName(first: string, last: string): string | null {
  const name = [first.trim(), last.trim()].filter(Boolean).join(' ');
  return name || null;
}
