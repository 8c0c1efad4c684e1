// Test helper: panva's oidc-provider (`oidc-provider.server.mjs`) in a child process on an ephemeral port,
// and a person's browser at it: following its redirects with cookies, signing in on its development login
// page and consenting, until it answers the client's redirect URI (a query redirect, or for form_post the
// auto-submitting form). Returns the authorization response's parameters (code, state, iss) as the
// browser would bring them to the callback.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface OidcClientMetadata {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
  token_endpoint_auth_method?: string;
}

export interface OidcProviderServer {
  issuer: string;
  /** Sign in as `login` (an account's sub) and consent: the authorization response's parameters. */
  authorize(authorizationUrl: string, login: string, redirectUri: string): Promise<Record<string, string>>;
  close(): Promise<void>;
}

const SERVER = path.join(__dirname, 'oidc-provider.server.mjs');

export async function startOidcProvider(options: { clients: OidcClientMetadata[]; accounts: Record<string, Record<string, unknown>> }): Promise<OidcProviderServer> {
  const child: ChildProcess = spawn(process.execPath, [SERVER, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const issuer = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`oidc-provider did not start: ${stderr}`)), 20_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { issuer: string }).issuer);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`oidc-provider exited (${code}): ${stderr}`));
    });
  });

  async function authorize(authorizationUrl: string, login: string, redirectUri: string): Promise<Record<string, string>> {
    const jar = new Map<string, string>();
    let url = authorizationUrl;
    let init: { method: string; body?: string } = { method: 'GET' };
    for (let step = 0; step < 20; step++) {
      const res = await fetch(url, {
        method: init.method,
        redirect: 'manual',
        headers: {
          ...(jar.size ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
          ...(init.body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(init.body !== undefined ? { body: init.body } : {}),
      });
      for (const cookie of res.headers.getSetCookie()) {
        const [pair] = cookie.split(';');
        const eq = pair!.indexOf('=');
        jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
      }
      if (res.status >= 300 && res.status < 400) {
        const next = new URL(res.headers.get('location') ?? '', url);
        if (next.href.startsWith(redirectUri)) return Object.fromEntries(next.searchParams);
        url = next.href;
        init = { method: 'GET' };
        continue;
      }
      const html = await res.text();
      if (res.status !== 200) throw new Error(`oidc-provider answered ${res.status}: ${html.slice(0, 500)}`);
      const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
      if (!form) throw new Error(`oidc-provider page without a form: ${html.slice(0, 500)}`);
      const action = new URL(form[1]!.replace(/&amp;/g, '&'), url).href;
      const fields: Record<string, string> = {};
      for (const input of form[2]!.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/gi)) {
        fields[input[1]!] = input[2]!.replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
      }
      // form_post: the page that would post the response to the client.
      if (action.startsWith(redirectUri)) return fields;
      if (fields['prompt'] === 'login') Object.assign(fields, { login, password: 'any password' });
      url = action;
      init = { method: 'POST', body: new URLSearchParams(fields).toString() };
    }
    throw new Error('oidc-provider: too many steps');
  }

  return {
    issuer,
    authorize,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
