// Test server: panva's oidc-provider (a certified OpenID Provider) on its default settings, run in a child
// process of the test (it is ESM-only; Jest's module system is not). Only what a provider must be told is
// configured: its clients and its accounts' claims. Everything else (discovery with
// authorization_response_iss_parameter_supported, `iss` on every authorization response, PKCE, the
// development login and consent pages, ID tokens that carry only the claims a client asked for in the
// `claims` parameter, so `email` comes from UserInfo) is the library's default.
// Input: one JSON argument {clients: [...], accounts: {sub: claims}}. Output: one line {"issuer": url}.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const { clients, accounts } = JSON.parse(process.argv[2] ?? '{}');
let handler = (_req, res) => res.writeHead(503).end();
const server = createServer((req, res) => handler(req, res));
server.listen(0, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const provider = new Provider(issuer, {
    clients,
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    async findAccount(_ctx, sub) {
      const claims = accounts[sub];
      if (!claims) return undefined;
      return { accountId: sub, claims: async () => ({ sub, ...claims }) };
    },
  });
  handler = provider.callback();
  process.stdout.write(`${JSON.stringify({ issuer })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
