// Social sign-in configuration (CONTRACTS §10): a provider is on when its client id and its
// secret (Apple: team id, key id and private key) are set. Nothing here reads process.env.
import { z } from 'zod';
import { parseEnv } from './load';

const optionalString = () =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));
const optionalHttpUrl = () =>
  optionalString().refine((v) => v === undefined || /^https?:\/\/[^\s]+$/.test(v), { message: 'must be a URL starting with http:// or https://' });

export const oauthEnv = z.object({
  PUBLIC_API_URL: optionalHttpUrl().describe("core-api's public address; the OAuth redirect URI is ${PUBLIC_API_URL}/api/auth/oauth/{provider}/callback"),
  OAUTH_GOOGLE_CLIENT_ID: optionalString(),
  OAUTH_GOOGLE_CLIENT_SECRET: optionalString(),
  OAUTH_GOOGLE_ISSUER: optionalHttpUrl(),
  OAUTH_FACEBOOK_CLIENT_ID: optionalString(),
  OAUTH_FACEBOOK_CLIENT_SECRET: optionalString(),
  OAUTH_FACEBOOK_BASE_URL: optionalHttpUrl(),
  OAUTH_APPLE_CLIENT_ID: optionalString(),
  OAUTH_APPLE_TEAM_ID: optionalString(),
  OAUTH_APPLE_KEY_ID: optionalString(),
  // Never echoed in a configuration error: a private key.
  OAUTH_APPLE_PRIVATE_KEY: z.string().optional(),
  OAUTH_APPLE_ISSUER: optionalHttpUrl(),
});

export const OAUTH_PROVIDERS = ['google', 'facebook', 'apple'] as const;
export type OAuthProviderName = (typeof OAUTH_PROVIDERS)[number];

export interface OidcProviderConfig {
  kind: 'oidc';
  clientId: string;
  /** The OpenID Connect issuer whose discovery document is read. */
  issuer: string;
}

export interface OAuthConfig {
  /** Base of the redirect URIs. */
  publicApiUrl: string;
  google?: OidcProviderConfig & { clientSecret: string };
  apple?: OidcProviderConfig & { teamId: string; keyId: string; privateKey: string };
  facebook?: { kind: 'oauth2'; clientId: string; clientSecret: string; baseUrl: string };
}

export const DEFAULT_GOOGLE_ISSUER = 'https://accounts.google.com';
export const DEFAULT_APPLE_ISSUER = 'https://appleid.apple.com';
export const DEFAULT_FACEBOOK_BASE_URL = 'https://graph.facebook.com';

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** The providers that are configured; `fallbackPublicUrl` serves when PUBLIC_API_URL is unset. */
export function loadOAuthConfig(env: Record<string, string | undefined>, fallbackPublicUrl: string): OAuthConfig {
  const e = parseEnv(oauthEnv, env);
  const config: OAuthConfig = { publicApiUrl: trimSlash(e.PUBLIC_API_URL ?? fallbackPublicUrl) };
  if (e.OAUTH_GOOGLE_CLIENT_ID && e.OAUTH_GOOGLE_CLIENT_SECRET) {
    config.google = { kind: 'oidc', clientId: e.OAUTH_GOOGLE_CLIENT_ID, clientSecret: e.OAUTH_GOOGLE_CLIENT_SECRET, issuer: trimSlash(e.OAUTH_GOOGLE_ISSUER ?? DEFAULT_GOOGLE_ISSUER) };
  }
  if (e.OAUTH_FACEBOOK_CLIENT_ID && e.OAUTH_FACEBOOK_CLIENT_SECRET) {
    config.facebook = {
      kind: 'oauth2',
      clientId: e.OAUTH_FACEBOOK_CLIENT_ID,
      clientSecret: e.OAUTH_FACEBOOK_CLIENT_SECRET,
      baseUrl: trimSlash(e.OAUTH_FACEBOOK_BASE_URL ?? DEFAULT_FACEBOOK_BASE_URL),
    };
  }
  const applePrivateKey = e.OAUTH_APPLE_PRIVATE_KEY?.trim().replace(/\\n/g, '\n');
  if (e.OAUTH_APPLE_CLIENT_ID && e.OAUTH_APPLE_TEAM_ID && e.OAUTH_APPLE_KEY_ID && applePrivateKey) {
    config.apple = {
      kind: 'oidc',
      clientId: e.OAUTH_APPLE_CLIENT_ID,
      teamId: e.OAUTH_APPLE_TEAM_ID,
      keyId: e.OAUTH_APPLE_KEY_ID,
      privateKey: applePrivateKey,
      issuer: trimSlash(e.OAUTH_APPLE_ISSUER ?? DEFAULT_APPLE_ISSUER),
    };
  }
  return config;
}

/** The configured providers, for /health. */
export const configuredOAuthProviders = (config: OAuthConfig): OAuthProviderName[] => OAUTH_PROVIDERS.filter((p) => config[p] !== undefined);
