// Test helper: a local fake authorization server per provider on an ephemeral port (CONTRACTS §10).
// OpenID Connect (Google, Apple): discovery document, JWKS with a key generated here, authorization
// endpoint (the test plays the person consenting with `consent`), token endpoint checking the client,
// the redirect URI and PKCE, and issuing an ID token. Facebook: token endpoint and the Graph API /me.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportPKCS8, generateKeyPair, jwtVerify, SignJWT, type KeyLike } from 'jose';

export interface IdTokenOverrides {
  sub?: string;
  email?: string | null;
  email_verified?: boolean | string;
  name?: string;
  /** Replace the nonce the authorization request carried. */
  nonce?: string;
  aud?: string;
  iss?: string;
  /** Seconds since the epoch. */
  exp?: number;
  iat?: number;
  /** Sign with a key the JWKS does not publish (under the published kid). */
  foreignKey?: boolean;
}

export interface Consent {
  code: string;
  state: string;
  /** RFC 9207: the issuer the authorization response names (sent back only when the test passes it on). */
  iss: string;
  params: URLSearchParams;
}

interface Grant {
  clientId: string;
  redirectUri: string;
  challenge: string;
  challengeMethod: string;
  nonce: string | null;
  overrides: IdTokenOverrides;
}

export interface FakeProvider {
  kind: 'oidc' | 'facebook';
  url: string;
  /** What the token endpoint saw, in order (form fields; Apple's client_secret JWT among them). */
  tokenRequests: Record<string, string>[];
  /** The person consents at the authorization URL the API redirected to: a code for the callback. */
  consent(authorizationUrl: string, overrides?: IdTokenOverrides): Consent;
  close(): Promise<void>;
}

const b64sha256 = (v: string) => createHash('sha256').update(v).digest('base64url');

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** An Apple-style client-secret key pair: the PKCS8 private key (for OAUTH_APPLE_PRIVATE_KEY) and the public key. */
export async function appleSigningKey(): Promise<{ pkcs8: string; publicKey: KeyLike }> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  return { pkcs8: await exportPKCS8(privateKey), publicKey };
}

export async function startFakeProvider(options: {
  kind: 'oidc' | 'facebook';
  clientId: string;
  /** Google and Facebook: the shared secret. */
  clientSecret?: string;
  /** Apple: the client secret is an ES256 JWT checked against this key (iss team, sub client, aud issuer, kid). */
  appleSecret?: { publicKey: KeyLike; teamId: string; keyId: string };
  /** Facebook: the profile /me answers. */
  profile?: { id: string; name?: string; email?: string };
  /** OIDC: advertise authorization_response_iss_parameter_supported (RFC 9207), as standards-following providers do. */
  issParameter?: boolean;
}): Promise<FakeProvider> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const foreign = await generateKeyPair('RS256', { extractable: true });
  const kid = randomBytes(6).toString('hex');
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const grants = new Map<string, Grant>();
  const accessTokens = new Set<string>();
  const tokenRequests: Record<string, string>[] = [];
  let url = '';

  async function checkClient(form: Record<string, string>, req: IncomingMessage): Promise<string | undefined> {
    let id = form['client_id'];
    let secret = form['client_secret'];
    const basic = req.headers.authorization;
    if (basic?.startsWith('Basic ')) {
      const [u, p] = Buffer.from(basic.slice(6), 'base64').toString('utf8').split(':');
      id = decodeURIComponent(u ?? '');
      secret = decodeURIComponent(p ?? '');
    }
    if (id !== options.clientId || !secret) return 'invalid_client';
    if (options.appleSecret) {
      try {
        const { payload, protectedHeader } = await jwtVerify(secret, options.appleSecret.publicKey, {
          algorithms: ['ES256'],
          issuer: options.appleSecret.teamId,
          subject: options.clientId,
          audience: url,
        });
        if (protectedHeader.kid !== options.appleSecret.keyId || typeof payload.exp !== 'number') return 'invalid_client';
      } catch {
        return 'invalid_client';
      }
    } else if (secret !== options.clientSecret) return 'invalid_client';
    return undefined;
  }

  async function token(req: IncomingMessage, res: ServerResponse) {
    const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
    tokenRequests.push(form);
    const clientProblem = await checkClient(form, req);
    if (clientProblem) return json(res, 401, { error: clientProblem });
    const grant = grants.get(form['code'] ?? '');
    grants.delete(form['code'] ?? '');
    if (form['grant_type'] !== 'authorization_code' || !grant) return json(res, 400, { error: 'invalid_grant' });
    if (grant.redirectUri !== form['redirect_uri']) return json(res, 400, { error: 'invalid_grant', error_description: 'redirect_uri' });
    if (grant.challengeMethod !== 'S256' || b64sha256(form['code_verifier'] ?? '') !== grant.challenge) {
      return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
    }
    const accessToken = randomBytes(24).toString('base64url');
    accessTokens.add(accessToken);
    if (options.kind === 'facebook') return json(res, 200, { access_token: accessToken, token_type: 'bearer', expires_in: 3600 });
    const o = grant.overrides;
    const now = Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = {
      sub: o.sub ?? 'subject-1',
      email_verified: o.email_verified ?? true,
      nonce: o.nonce ?? grant.nonce,
      ...(o.email === null ? {} : { email: o.email ?? 'person@example.test' }),
      ...(o.name ? { name: o.name } : {}),
    };
    const idToken = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuer(o.iss ?? url)
      .setAudience(o.aud ?? grant.clientId)
      .setIssuedAt(o.iat ?? now)
      .setExpirationTime(o.exp ?? now + 600)
      .sign(o.foreignKey ? foreign.privateKey : privateKey);
    return json(res, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: 3600, id_token: idToken });
  }

  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    void (async () => {
      if (options.kind === 'oidc' && req.method === 'GET' && path === '/.well-known/openid-configuration') {
        return json(res, 200, {
          issuer: url,
          authorization_endpoint: `${url}/authorize`,
          token_endpoint: `${url}/token`,
          jwks_uri: `${url}/jwks`,
          response_types_supported: ['code'],
          response_modes_supported: ['query', 'form_post'],
          subject_types_supported: ['public', 'pairwise'],
          id_token_signing_alg_values_supported: ['RS256'],
          scopes_supported: ['openid', 'email', 'profile', 'name'],
          token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
          code_challenge_methods_supported: ['S256'],
          ...(options.issParameter ? { authorization_response_iss_parameter_supported: true } : {}),
        });
      }
      if (options.kind === 'oidc' && req.method === 'GET' && path === '/jwks') return json(res, 200, { keys: [publicJwk] });
      if (req.method === 'POST' && (path === '/token' || path === '/oauth/access_token')) return token(req, res);
      if (options.kind === 'facebook' && req.method === 'GET' && path === '/me') {
        const bearer = req.headers.authorization?.replace(/^Bearer /i, '') ?? '';
        if (!accessTokens.has(bearer)) return json(res, 401, { error: { message: 'Invalid OAuth access token' } });
        return json(res, 200, options.profile ?? { id: 'fb-1' });
      }
      return json(res, 404, { error: 'not_found' });
    })().catch((err: unknown) => json(res, 500, { error: String(err) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    kind: options.kind,
    url,
    tokenRequests,
    consent(authorizationUrl, overrides = {}) {
      const params = new URL(authorizationUrl).searchParams;
      if (params.get('client_id') !== options.clientId) throw new Error(`fake provider: unknown client_id ${params.get('client_id')}`);
      const code = randomBytes(16).toString('base64url');
      grants.set(code, {
        clientId: options.clientId,
        redirectUri: params.get('redirect_uri') ?? '',
        challenge: params.get('code_challenge') ?? '',
        challengeMethod: params.get('code_challenge_method') ?? '',
        nonce: params.get('nonce'),
        overrides,
      });
      return { code, state: params.get('state') ?? '', iss: url, params };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
