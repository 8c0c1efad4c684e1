// The three social sign-in providers on openid-client (spec 000 Authentication 2, CONTRACTS §10). Google and
// Apple are OpenID Connect: their discovery document (OAUTH_<P>_ISSUER) gives the endpoints and the JWKS the
// ID token is checked against (signature, iss, aud, nonce, exp: all by the library). Facebook is plain
// OAuth 2: an Issuer with explicit endpoints under OAUTH_FACEBOOK_BASE_URL and the Graph API /me as userinfo.
// Apple's client secret is the ES256 JWT Apple requires, signed with the configured key.
import { importPKCS8, SignJWT } from 'jose';
import { Issuer, type BaseClient, type Client } from 'openid-client';
import { OAUTH_PROVIDERS, type OAuthConfig, type OAuthProviderName } from '@story/config';

export { OAUTH_PROVIDERS, type OAuthProviderName };

export const PROVIDER_LABEL: Record<OAuthProviderName, string> = { google: 'Google', facebook: 'Facebook', apple: 'Apple' };

export interface ProviderClient {
  name: OAuthProviderName;
  /** OpenID Connect (ID token with a nonce) or plain OAuth 2 with a profile endpoint. */
  oidc: boolean;
  scope: string;
  /** Apple posts the callback (form_post); the others redirect with a query. */
  responseMode?: 'form_post';
  redirectUri: string;
  client(): Promise<BaseClient>;
}

const FACEBOOK_GRAPH_HOST = 'graph.facebook.com';

/** Facebook's endpoints: the dialog lives on www.facebook.com for the real Graph API, under the base URL otherwise. */
export function facebookEndpoints(baseUrl: string) {
  const url = new URL(baseUrl);
  const dialogBase = url.hostname === FACEBOOK_GRAPH_HOST ? `https://www.facebook.com${url.pathname.replace(/\/+$/, '')}` : baseUrl;
  return {
    authorization: `${dialogBase}/dialog/oauth`,
    token: `${baseUrl}/oauth/access_token`,
    userinfo: `${baseUrl}/me?fields=id,name,email`,
  };
}

/** Apple's client secret: an ES256 JWT (iss team id, sub client id, aud the issuer, kid key id), 5 minutes. */
export async function appleClientSecret(apple: NonNullable<OAuthConfig['apple']>): Promise<string> {
  const key = await importPKCS8(apple.privateKey, 'ES256');
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: apple.keyId })
    .setIssuer(apple.teamId)
    .setSubject(apple.clientId)
    .setAudience(apple.issuer)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(key);
}

/** The configured providers' clients; discovery documents are fetched once (again after a failure). */
export function createProviderClients(config: OAuthConfig): Partial<Record<OAuthProviderName, ProviderClient>> {
  const redirectUri = (name: OAuthProviderName) => `${config.publicApiUrl}/api/auth/oauth/${name}/callback`;
  const discovered = new Map<string, Promise<Issuer<Client>>>();
  const discover = (issuer: string): Promise<Issuer<Client>> => {
    let found = discovered.get(issuer);
    if (!found) {
      found = Issuer.discover(issuer);
      discovered.set(issuer, found);
      found.catch(() => discovered.delete(issuer));
    }
    return found;
  };

  const clients: Partial<Record<OAuthProviderName, ProviderClient>> = {};
  const { google, apple, facebook } = config;
  if (google) {
    clients.google = {
      name: 'google',
      oidc: true,
      scope: 'openid email profile',
      redirectUri: redirectUri('google'),
      client: async () => {
        const issuer = await discover(google.issuer);
        return new issuer.Client({ client_id: google.clientId, client_secret: google.clientSecret, redirect_uris: [redirectUri('google')], response_types: ['code'] });
      },
    };
  }
  if (apple) {
    clients.apple = {
      name: 'apple',
      oidc: true,
      scope: 'openid email name',
      responseMode: 'form_post',
      redirectUri: redirectUri('apple'),
      client: async () => {
        const issuer = await discover(apple.issuer);
        return new issuer.Client({
          client_id: apple.clientId,
          client_secret: await appleClientSecret(apple),
          token_endpoint_auth_method: 'client_secret_post',
          redirect_uris: [redirectUri('apple')],
          response_types: ['code'],
        });
      },
    };
  }
  if (facebook) {
    const endpoints = facebookEndpoints(facebook.baseUrl);
    const issuer = new Issuer({
      issuer: facebook.baseUrl,
      authorization_endpoint: endpoints.authorization,
      token_endpoint: endpoints.token,
      userinfo_endpoint: endpoints.userinfo,
    });
    clients.facebook = {
      name: 'facebook',
      oidc: false,
      scope: 'email public_profile',
      redirectUri: redirectUri('facebook'),
      client: async () =>
        new issuer.Client({
          client_id: facebook.clientId,
          client_secret: facebook.clientSecret,
          token_endpoint_auth_method: 'client_secret_post',
          redirect_uris: [redirectUri('facebook')],
          response_types: ['code'],
        }),
    };
  }
  return clients;
}
