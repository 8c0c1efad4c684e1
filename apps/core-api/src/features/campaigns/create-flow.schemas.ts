// What each step of the campaign create flow accepts (spec 000 Endpoints: Campaigns, multi-step creation).
// Step 1 the storyteller, step 2 the campaign's title and description, step 3 the prompts; family members
// and the gift address have their own routes.
import { z } from 'zod';
import { CAMPAIGN_RELATIONSHIPS, INVITATION_ROLES } from '@story/db';
import { RELATIONSHIP_TYPES } from '../family/family.constants';

export const FLOW_STEPS = [1, 2, 3] as const;

/** A phone number as people write it: digits with spaces, dashes, dots, brackets and an optional leading +; 7 to 15 digits. */
const phone = z
  .string()
  .trim()
  .max(30)
  .regex(/^\+?[0-9 ()\-.]+$/, 'must be a phone number (digits, spaces, dashes, brackets, an optional leading +)')
  .refine((v) => {
    const digits = v.replace(/\D/g, '').length;
    return digits >= 7 && digits <= 15;
  }, 'must have 7 to 15 digits');

export const storytellerStep = z.object({
  storytellerName: z.string().trim().min(1).max(200),
  storytellerEmail: z.email().max(254).nullable().optional(),
  storytellerPhone: phone.nullable().optional(),
  relationship: z.enum(CAMPAIGN_RELATIONSHIPS),
});

export const detailsStep = z.object({
  title: z.string().trim().min(1).max(200),
  description: z.string().trim().max(5000).nullable().optional(),
});

export const promptsStep = z.object({
  prompts: z
    .array(z.string().trim().min(3).max(500))
    .min(1)
    .max(1000)
    .refine((p) => new Set(p.map((x) => x.toLowerCase())).size === p.length, 'must not repeat a prompt'),
});

export const STEP_SCHEMAS = { 1: storytellerStep, 2: detailsStep, 3: promptsStep } as const;

export const familyMembersStep = z.object({
  members: z
    .array(
      z.object({
        email: z.email().max(254),
        name: z.string().trim().min(1).max(120).optional(),
        role: z.enum(INVITATION_ROLES),
        relationship: z.enum(RELATIONSHIP_TYPES).optional(),
      }),
    )
    .max(25),
});
export type FamilyMembersStep = z.infer<typeof familyMembersStep>;

/** Postal-code shapes of the countries we check strictly; elsewhere a generic 2-10 character code. */
const POSTAL: Record<string, RegExp> = {
  US: /^\d{5}(-\d{4})?$/,
  CA: /^[A-Za-z]\d[A-Za-z] ?\d[A-Za-z]\d$/,
  GB: /^[A-Za-z]{1,2}\d[A-Za-z\d]? ?\d[A-Za-z]{2}$/,
  AU: /^\d{4}$/,
  DE: /^\d{5}$/,
  FR: /^\d{5}$/,
  NL: /^\d{4} ?[A-Za-z]{2}$/,
  IE: /^[A-Za-z\d]{3} ?[A-Za-z\d]{4}$/,
};
const GENERIC_POSTAL = /^[A-Za-z0-9][A-Za-z0-9 -]{1,9}$/;

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
/** ISO 3166-1 alpha-2, checked against the runtime's region data (an unknown code comes back unchanged). */
const isCountry = (code: string) => /^[A-Z]{2}$/.test(code) && regionNames.of(code) !== code;

export const giftAddress = z
  .object({
    recipientName: z.string().trim().min(1).max(200),
    line1: z.string().trim().min(1).max(200),
    line2: z.string().trim().max(200).nullable().optional(),
    city: z.string().trim().min(1).max(100),
    region: z.string().trim().max(100).nullable().optional(),
    postalCode: z.string().trim().min(2).max(12),
    country: z
      .string()
      .trim()
      .transform((c) => c.toUpperCase())
      .refine(isCountry, 'must be an ISO 3166-1 alpha-2 country code such as US or GB'),
    phone: phone.nullable().optional(),
  })
  .superRefine((a, ctx) => {
    const pattern = POSTAL[a.country] ?? GENERIC_POSTAL;
    if (!pattern.test(a.postalCode)) ctx.addIssue({ code: 'custom', path: ['postalCode'], message: `is not a valid postal code for ${a.country}` });
    if (a.country === 'US' && !a.region) ctx.addIssue({ code: 'custom', path: ['region'], message: 'is required for a US address (the state)' });
  });
export type GiftAddress = z.infer<typeof giftAddress>;
