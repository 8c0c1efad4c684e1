// Every rate limit of the three documents, by name, in one table. A route or service names its limit
// (`rateLimit.route('core.uploads')`, `countedLimit('core.invites', scale)`) and never writes a number.
// store 'window': @fastify/rate-limit (Redis when REDIS_URL, else in-process), a sliding bucket per route.
// store 'postgres': persisted, either tools_rate_limits counters (counter: fixed UTC hour/day windows) or
// rows the feature already stores and counts over the last window (counter: 'rows').
import type { RateLimitScope } from '@story/db';

export type LimitWindow = 'minute' | 'hour' | 'day';
/** What a caller is counted by: the address, the signed-in caller (else the address), the account, the tools session, the email asked for. */
export type LimitKey = 'ip' | 'caller' | 'user' | 'session-or-user' | 'email';
export type LimitStore = 'window' | 'postgres';

export interface LimitSpec {
  name: string;
  max: number;
  window: LimitWindow;
  key: LimitKey;
  store: LimitStore;
  /** postgres only: the tools_rate_limits scope, or 'rows' when the feature counts its own rows. */
  counter?: RateLimitScope | 'rows';
  /** RATE_LIMIT_SCALE multiplies max unless this is false. */
  scaled: boolean;
  /** The sentence of a refusal by a counted ('rows') limit; {max} is replaced. */
  refusal?: string;
  /** Where the number comes from. */
  source: string;
}

type Row = Omit<LimitSpec, 'name' | 'scaled'> & { scaled?: boolean };

const window = (max: number, window: LimitWindow, key: LimitKey, source: string): Row & { store: 'window' } => ({ max, window, key, store: 'window', source });

const BASE = {
  // Spec 000 Limits (core-api).
  'core.general': window(100, 'minute', 'caller', 'spec 000 Limits: general API'),
  'core.auth': window(5, 'minute', 'ip', 'spec 000 Limits: authentication'),
  'core.stories': window(10, 'minute', 'caller', 'spec 000 Limits: story creation'),
  'core.uploads': window(20, 'hour', 'caller', 'spec 000 Limits: file upload'),
  'core.invitation-preview': window(30, 'minute', 'caller', 'core-api: the public invitation preview, per address'),
  'core.share': window(120, 'minute', 'caller', 'core-api: public share links and their audio (GET /api/share/[token]), per address; players seek with Range'),
  'core.oauth': window(30, 'minute', 'ip', 'core-api: social sign-in (CONTRACTS §10) start, callback and code exchange, per address'),
  // CONTRACTS §9: gifts move money and plans, so each of these is limited per account.
  'core.gifts.purchase': window(10, 'hour', 'caller', 'CONTRACTS §9: gift purchases per account'),
  'core.gifts.retry': window(10, 'hour', 'caller', 'CONTRACTS §9: failed gift deliveries sent again, per account'),
  'core.gifts.redeem': window(10, 'hour', 'caller', 'CONTRACTS §9: gift redemptions (and attempts) per account'),
  'core.invites': {
    max: 5,
    window: 'hour',
    key: 'user',
    store: 'postgres',
    counter: 'rows',
    refusal: 'You can send {max} family invitations per hour. Try again later.',
    source: 'spec 000 Limits: family invites (creations plus resends in family_invitations)',
  } as Row,
  'core.resend-verification': {
    max: 3,
    window: 'hour',
    key: 'user',
    store: 'postgres',
    counter: 'rows',
    scaled: false,
    refusal: 'At most {max} verification emails per hour. Please try again later.',
    source: 'CONTRACTS §7: resend-verification (email_verification_tokens of source resend)',
  } as Row,
  // CONTRACTS §10: magic sign-in links. Per email: every request counts, account or not (magic_link_tokens rows).
  'core.magic-link.ip': window(20, 'hour', 'ip', 'CONTRACTS §10: magic-link requests per address'),
  'core.magic-link.email': {
    max: 5,
    window: 'hour',
    key: 'email',
    store: 'postgres',
    counter: 'rows',
    refusal: 'At most {max} sign-in links per hour for this address. Please try again later.',
    source: 'CONTRACTS §10: magic-link requests per email (magic_link_tokens rows by email hash, whether or not an account exists)',
  } as Row,
  // Spec 001 Limits (email-service).
  'email.admin': window(100, 'minute', 'caller', 'spec 001 Limits: admin'),
  'email.user': window(60, 'minute', 'caller', 'spec 001 Limits: user'),
  'email.webhook': window(1000, 'minute', 'caller', 'spec 001 Limits: webhook'),
  // Spec 002 Limits (tools-api).
  'tools.general': window(300, 'minute', 'caller', 'tools-api: every route, per caller'),
};

export type ToolsTier = 'anonymous' | 'authenticated' | 'premium';
const TIERS: readonly ToolsTier[] = ['anonymous', 'authenticated', 'premium'];
/** Premium (admin, support) callers get ten times the signed-in daily allowances. */
const PREMIUM_DAILY_FACTOR = 10;

const counter = (max: number, counter: RateLimitScope, source: string): Row => ({
  max,
  window: counter === 'hourly' ? 'hour' : 'day',
  key: 'session-or-user',
  store: 'postgres',
  counter,
  source,
});

/** Spec 002: generic generate endpoint per hour, by tier. */
const GENERATE_PER_HOUR: Record<ToolsTier, number> = { anonymous: 5, authenticated: 50, premium: 500 };
/** Spec 002: per-tool daily generation limits of the tools application; other tools use 'default' (framework default). */
export const TOOLS_DAILY: Record<string, { anonymous: number; authenticated: number }> = {
  default: { anonymous: 10, authenticated: 100 },
  flashcards: { anonymous: 10, authenticated: 100 },
  'story-prompts': { anonymous: 15, authenticated: 150 },
  'book-blurb': { anonymous: 10, authenticated: 100 },
  'romance-writing-prompts': { anonymous: 15, authenticated: 150 },
  flipbook: { anonymous: 5, authenticated: 50 },
};
/** Spec 002: responses per tool per day (framework default). */
const RESPONSES_PER_DAY = { anonymous: 5, authenticated: 50 };
const daily = (limits: { anonymous: number; authenticated: number }, tier: ToolsTier) =>
  tier === 'premium' ? limits.authenticated * PREMIUM_DAILY_FACTOR : limits[tier];

const TOOLS_ROWS: Record<string, Row> = {};
for (const tier of TIERS) {
  TOOLS_ROWS[`tools.generate.${tier}`] = counter(GENERATE_PER_HOUR[tier], 'hourly', `spec 002 Limits: generate, ${tier}`);
  TOOLS_ROWS[`tools.responses.${tier}`] = counter(daily(RESPONSES_PER_DAY, tier), 'responses', `spec 002 Limits: responses per tool per day, ${tier}`);
  for (const [tool, limits] of Object.entries(TOOLS_DAILY)) {
    TOOLS_ROWS[`tools.daily.${tool}.${tier}`] = counter(daily(limits, tier), 'daily', `spec 002 Limits: ${tool} per day, ${tier}`);
  }
}

/** Names of the short-window limits routes can name. */
export type WindowLimitName = { [K in keyof typeof BASE]: (typeof BASE)[K] extends { store: 'window' } ? K : never }[keyof typeof BASE];
/** Names of the limits a feature counts over its own rows. */
export type CountedLimitName = Exclude<keyof typeof BASE, WindowLimitName>;
export type LimitName = keyof typeof BASE | `tools.${string}`;

/** The table: every named limit. */
export const LIMITS: Readonly<Record<string, LimitSpec>> = Object.fromEntries(
  Object.entries({ ...BASE, ...TOOLS_ROWS } as Record<string, Row>).map(([name, row]) => [name, { ...row, name, scaled: row.scaled ?? true }]),
);

export function limitSpec(name: LimitName): LimitSpec {
  const spec = LIMITS[name];
  if (!spec) throw new Error(`Unknown limit "${name}"`);
  return spec;
}

/** The max in force: RATE_LIMIT_SCALE applied (never below 1) unless the limit is unscaled. */
export const scaledMax = (spec: LimitSpec, scale: number): number => (spec.scaled ? Math.max(1, Math.floor(spec.max * scale)) : spec.max);

/** Tools generation limits: the hourly generic one, and the tool's daily one (its own row or the default). */
export const toolsGenerateLimit = (tier: ToolsTier): LimitSpec => limitSpec(`tools.generate.${tier}`);
export const toolsDailyLimit = (tool: string, tier: ToolsTier): LimitSpec =>
  limitSpec(`tools.daily.${Object.hasOwn(TOOLS_DAILY, tool) ? tool : 'default'}.${tier}`);
export const toolsResponseLimit = (tier: ToolsTier): LimitSpec => limitSpec(`tools.responses.${tier}`);
