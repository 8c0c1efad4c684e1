import { ConfigError, dkimDnsRecord, loadPlatformConfig, parseEnv, parseSmtpUrl, runtimeEnv } from './index';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'cfg-'));

describe('loadPlatformConfig', () => {
  it('gives the embedded defaults with nothing set', () => {
    const dataDir = tmp();
    const c = loadPlatformConfig({ DATA_DIR: dataDir });
    expect(c.ports).toEqual({ coreApi: 3000, emailService: 3001, toolsApi: 3002 });
    expect(c.host).toBe('127.0.0.1');
    expect(c.database).toEqual({ url: undefined, useEmbedded: true, embeddedPort: 54329, poolMax: 10, sessionCacheMs: 30000 });
    expect(c.storage).toEqual({ driver: 'local', root: path.join(dataDir, 'storage') });
    expect(c.email).toMatchObject({ driver: 'outbox', outboxDir: path.join(dataDir, 'outbox') });
    expect(c.rateLimit).toEqual({ redisUrl: undefined, scale: 1 });
    expect(c.providers.LLM_PROVIDER).toBe('local');
    // CONTRACTS §4: with no cloud provider the offline recogniser is stt_primary, Moonshine base.
    expect(c.providers).toMatchObject({ STT_PRIMARY: 'local', STT_FALLBACK: 'none', LOCAL_STT_MODEL: 'base', LOCAL_STT_CONCURRENCY: 1 });
    expect(c.providers.LOCAL_STT_THREADS).toBeUndefined();
  });

  it('keeps a configured cloud provider primary; local can be its fallback', () => {
    const pick = (env: Record<string, string>) => {
      const p = loadPlatformConfig({ DATA_DIR: tmp(), ...env }).providers;
      return [p.STT_PRIMARY, p.STT_FALLBACK];
    };
    expect(pick({ STT_PRIMARY: 'google', GOOGLE_SPEECH_API_KEY: 'k' })).toEqual(['google', 'none']);
    expect(pick({ STT_PRIMARY: 'google', GOOGLE_SPEECH_API_KEY: 'k', STT_FALLBACK: 'local' })).toEqual(['google', 'local']);
    // A fallback named alone serves alone, as before the local recogniser existed.
    expect(pick({ STT_FALLBACK: 'deepgram', DEEPGRAM_API_KEY: 'd' })).toEqual(['none', 'deepgram']);
    expect(pick({ STT_PRIMARY: 'local', STT_FALLBACK: 'deepgram', DEEPGRAM_API_KEY: 'd' })).toEqual(['local', 'deepgram']);
    expect(pick({ STT_PRIMARY: 'none' })).toEqual(['none', 'none']);
    expect(loadPlatformConfig({ DATA_DIR: tmp(), LOCAL_STT_MODEL: 'tiny', LOCAL_STT_THREADS: '2' }).providers).toMatchObject({ LOCAL_STT_MODEL: 'tiny', LOCAL_STT_THREADS: 2 });
  });

  it('chooses storage by STORAGE_DRIVER: none refuses uploads, local overrides S3_BUCKET, s3 needs a bucket', () => {
    expect(loadPlatformConfig({ DATA_DIR: tmp(), STORAGE_DRIVER: 'none' }).storage).toEqual({ driver: 'none' });
    expect(loadPlatformConfig({ DATA_DIR: tmp(), STORAGE_DRIVER: 'local', S3_BUCKET: 'media' }).storage.driver).toBe('local');
    expect(() => loadPlatformConfig({ DATA_DIR: tmp(), STORAGE_DRIVER: 's3' })).toThrow(/S3_BUCKET/);
    expect(() => loadPlatformConfig({ DATA_DIR: tmp(), STORAGE_DRIVER: 'disk' })).toThrow(/STORAGE_DRIVER/);
  });

  it('generates the dev JWT secret once and keeps it in DATA_DIR', () => {
    const dataDir = tmp();
    const a = loadPlatformConfig({ DATA_DIR: dataDir });
    const b = loadPlatformConfig({ DATA_DIR: dataDir });
    expect(a.secrets.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(b.secrets.jwtSecret).toBe(a.secrets.jwtSecret);
    expect(readFileSync(path.join(dataDir, 'secrets', 'jwt-secret'), 'utf8')).toBe(a.secrets.jwtSecret);
  });

  it('derives S3, SMTP, Redis and database settings from their variables', () => {
    const c = loadPlatformConfig({
      DATA_DIR: tmp(),
      DATABASE_URL: 'postgres://u:p@db:5432/app',
      S3_BUCKET: 'media',
      S3_ENDPOINT: 'http://minio:9000',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
      S3_FORCE_PATH_STYLE: 'true',
      SMTP_URL: 'smtp://mail:1025',
      REDIS_URL: 'redis://cache:6379',
      ADMIN_EMAILS: 'A@x.test, b@x.test',
      CORE_API_PORT: '4000',
    });
    expect(c.database.useEmbedded).toBe(false);
    expect(c.storage).toMatchObject({ driver: 's3', bucket: 'media', endpoint: 'http://minio:9000', forcePathStyle: true });
    expect(c.email).toMatchObject({ driver: 'smtp', smtpUrl: 'smtp://mail:1025' });
    expect(c.rateLimit.redisUrl).toBe('redis://cache:6379');
    expect(c.adminEmails).toEqual(['a@x.test', 'b@x.test']);
    expect(c.ports.coreApi).toBe(4000);
  });

  it.each([
    [{ CORE_API_PORT: 'abc' }, /^Invalid configuration: CORE_API_PORT="abc": /],
    [{ CORE_API_PORT: '70000' }, /CORE_API_PORT="70000"/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL="mysql:\/\/x": must be a URL starting with postgres:\/\/ or postgresql:\/\//],
    [{ SMTP_URL: 'http://mail' }, /SMTP_URL=.*smtp:\/\//],
    [{ NODE_ENV: 'production' }, /JWT_SECRET: is required when NODE_ENV=production/],
    [{ JWT_SECRET: 'short' }, /JWT_SECRET="short": must be at least 32 characters/],
    [{ EMAIL_WEBHOOK_SECRET: 'nope' }, /EMAIL_WEBHOOK_SECRET="nope": must look like whsec_/],
    [{ S3_ENDPOINT: 'http://minio:9000' }, /S3_BUCKET: is required when S3_ENDPOINT is set/],
    [{ STT_FALLBACK: 'deepgram' }, /DEEPGRAM_API_KEY: is required when STT_FALLBACK=deepgram/],
    [{ STT_PRIMARY: 'local', STT_FALLBACK: 'local' }, /STT_FALLBACK="local": cannot be local when STT_PRIMARY is local/],
    [{ LOCAL_STT_MODEL: 'large' }, /LOCAL_STT_MODEL="large"/],
    [{ LLM_PROVIDER: 'gpt' }, /LLM_PROVIDER="gpt"/],
    [{ RATE_LIMIT_SCALE: '-1' }, /RATE_LIMIT_SCALE/],
    [{ TRUST_PROXY: 'yes please' }, /^Invalid configuration: TRUST_PROXY="yes please": must be a hop count/],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /TRUST_PROXY="10.0.0.0\/33"/],
    [{ TRUST_PROXY: '127.0.0.1, example.com' }, /TRUST_PROXY=/],
  ])('refuses %j with one line naming the variable', (env, message) => {
    let error: unknown;
    try {
      loadPlatformConfig({ DATA_DIR: tmp(), ...env });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('reads SUPPORT_EMAILS beside ADMIN_EMAILS, lower-cased', () => {
    const c = loadPlatformConfig({ DATA_DIR: tmp(), ADMIN_EMAILS: 'Boss@X.test', SUPPORT_EMAILS: ' Help@X.test ,desk@x.test' });
    expect(c.adminEmails).toEqual(['boss@x.test']);
    expect(c.supportEmails).toEqual(['help@x.test', 'desk@x.test']);
    expect(loadPlatformConfig({ DATA_DIR: tmp() }).supportEmails).toEqual([]);
  });

  it('keeps TRUST_PROXY off by default and reads a hop count or a list of addresses and CIDRs', () => {
    expect(loadPlatformConfig({ DATA_DIR: tmp() }).trustProxy).toBe(false);
    expect(loadPlatformConfig({ DATA_DIR: tmp(), TRUST_PROXY: '' }).trustProxy).toBe(false);
    expect(loadPlatformConfig({ DATA_DIR: tmp(), TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadPlatformConfig({ DATA_DIR: tmp(), TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadPlatformConfig({ DATA_DIR: tmp(), TRUST_PROXY: '127.0.0.1/8, 10.1.2.3,::1, fd00::/8, loopback' }).trustProxy).toEqual([
      '127.0.0.1/8',
      '10.1.2.3',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('parseEnv reports every bad variable at once', () => {
    expect(() => parseEnv(runtimeEnv, { CORE_API_PORT: 'x', LOG_LEVEL: 'loud' })).toThrow(/CORE_API_PORT=.*; LOG_LEVEL=/);
  });

  describe('public addresses, storage, mail and signing (CONTRACTS §1)', () => {
    const prodSecrets = { NODE_ENV: 'production', JWT_SECRET: 'j'.repeat(40), UPLOAD_TICKET_SECRET: 'u'.repeat(40) };
    const messageOf = (env: Record<string, string>, options?: Parameters<typeof loadPlatformConfig>[1]) => {
      try {
        loadPlatformConfig({ DATA_DIR: tmp(), ...env }, options);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        expect((err as Error).message).not.toContain('\n');
        return (err as Error).message;
      }
      throw new Error('expected a ConfigError');
    };

    it('stops production without the public URLs, naming each variable in one line', () => {
      expect(messageOf(prodSecrets)).toMatch(/^Invalid configuration: PUBLIC_BASE_URL: is required when NODE_ENV=production/);
      const both = messageOf(prodSecrets, { publicUrlsInProduction: ['APP_URL'] });
      expect(both).toMatch(/PUBLIC_BASE_URL: is required/);
      expect(both).toMatch(/APP_URL: is required when NODE_ENV=production/);
      // Missing secrets and missing URLs come in the same line.
      expect(messageOf({ NODE_ENV: 'production' }, { publicUrlsInProduction: ['APP_URL'] })).toMatch(/JWT_SECRET.*PUBLIC_BASE_URL.*APP_URL/);
      const ok = loadPlatformConfig({ DATA_DIR: tmp(), ...prodSecrets, PUBLIC_BASE_URL: 'https://api.stories.example', APP_URL: 'https://stories.example/' }, { publicUrlsInProduction: ['APP_URL'] });
      expect(ok.publicBaseUrl).toBe('https://api.stories.example');
      expect(ok.appUrl).toBe('https://stories.example');
      // Outside production the defaults stand.
      expect(loadPlatformConfig({ DATA_DIR: tmp() }, { publicUrlsInProduction: ['APP_URL'] }).appUrl).toBe('http://localhost:5173');
    });

    it('reads S3_PUBLIC_ENDPOINT and refuses one that is not a URL', () => {
      const s3 = { S3_BUCKET: 'media', S3_ENDPOINT: 'http://minio:9000', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' };
      expect(loadPlatformConfig({ DATA_DIR: tmp(), ...s3, S3_PUBLIC_ENDPOINT: 'http://localhost:9000' }).storage).toMatchObject({ endpoint: 'http://minio:9000', publicEndpoint: 'http://localhost:9000' });
      expect(messageOf({ ...s3, S3_PUBLIC_ENDPOINT: 'localhost:9000 please' })).toMatch(/^Invalid configuration: S3_PUBLIC_ENDPOINT="localhost:9000 please": must be a URL starting with http:\/\/ or https:\/\//);
      expect(messageOf({ S3_PUBLIC_ENDPOINT: 'http://localhost:9000' })).toMatch(/S3_BUCKET: is required when S3_PUBLIC_ENDPOINT is set/);
    });

    it('refuses a malformed SMTP_URL naming it, without repeating its password', () => {
      for (const [url, reason] of [
        ['smtp://mailer:s3cret-pw@mail.example:99999', /SMTP_URL=.*must be a URL such as/],
        ['smtp://mailer:s3cret-pw@mail.example?tls.rejectUnauthorised=false', /SMTP_URL=.*unknown query parameter tls\.rejectUnauthorised/],
        ['smtp://mailer:s3cret-pw@mail.example?tls.rejectUnauthorized=maybe', /SMTP_URL=.*tls\.rejectUnauthorized must be true or false/],
        ['smtp://mailer:s3cret-pw@mail.example?tls.caFile=/nonexistent/ca.pem', /SMTP_URL=.*tls\.caFile \/nonexistent\/ca\.pem cannot be read \(ENOENT\)/],
        ['smtps://mailer:s3cret-pw@mail.example?requireTLS=true', /SMTP_URL=.*apply to smtp:\/\/ \(STARTTLS\) only/],
        ['smtp://mailer:s3cret-pw@mail.example/inbox', /SMTP_URL=.*must not have a path/],
      ] as const) {
        const message = messageOf({ SMTP_URL: url });
        expect(message).toMatch(reason);
        expect(message).not.toContain('s3cret-pw');
        expect(message).toContain('mailer:***@');
      }
    });

    it('parses the TLS options of SMTP_URL into what nodemailer takes', () => {
      const dir = tmp();
      const caFile = `${dir}/ca.pem`;
      writeFileSync(caFile, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
      expect(parseSmtpUrl(`smtp://u%40x:p%3Aw@relay.internal:2525?tls.caFile=${caFile}&tls.servername=mail.example&requireTLS=true&name=app.example`)).toEqual({
        host: 'relay.internal',
        port: 2525,
        secure: false,
        auth: { user: 'u@x', pass: 'p:w' },
        tls: { ca: readFileSync(caFile, 'utf8'), servername: 'mail.example' },
        requireTLS: true,
        ignoreTLS: false,
        name: 'app.example',
      });
      expect(parseSmtpUrl('smtp://127.0.0.1:25?tls.rejectUnauthorized=false')).toMatchObject({ port: 25, tls: { rejectUnauthorized: false } });
      expect(parseSmtpUrl('smtps://mail.example')).toMatchObject({ port: 465, secure: true, tls: {} });
      expect(parseSmtpUrl('smtp://mail.example')).toMatchObject({ port: 587, secure: false });
    });

    it('reads the DKIM settings and refuses a key that does not parse without echoing it', () => {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      const c = loadPlatformConfig({ DATA_DIR: tmp(), SMTP_URL: 'smtp://mail.example', DKIM_DOMAIN: 'Stories.Example', DKIM_SELECTOR: 'mail2026', DKIM_PRIVATE_KEY: pem.replace(/\n/g, '\\n') });
      expect(c.email).toMatchObject({ driver: 'smtp', dkim: { domainName: 'stories.example', keySelector: 'mail2026', privateKey: pem.trim() } });
      expect(dkimDnsRecord(pem)).toMatch(/^v=DKIM1; k=rsa; p=MII[A-Za-z0-9+/=]+$/);

      const broken = '-----BEGIN PRIVATE KEY-----\nTHISISNOTAKEYsecretmaterial\n-----END PRIVATE KEY-----';
      const message = messageOf({ DKIM_DOMAIN: 'stories.example', DKIM_SELECTOR: 'mail2026', DKIM_PRIVATE_KEY: broken });
      expect(message).toMatch(/^Invalid configuration: DKIM_PRIVATE_KEY: does not parse as a PEM private key/);
      expect(message).not.toContain('secretmaterial');
      const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      expect(messageOf({ DKIM_DOMAIN: 'stories.example', DKIM_SELECTOR: 'mail2026', DKIM_PRIVATE_KEY: ec })).toMatch(/DKIM_PRIVATE_KEY: must be an RSA key/);
      expect(messageOf({ DKIM_DOMAIN: 'stories.example' })).toMatch(/DKIM_SELECTOR: is required.*DKIM_PRIVATE_KEY: is required/);
      expect(messageOf({ DKIM_DOMAIN: 'not a domain', DKIM_SELECTOR: 'mail2026', DKIM_PRIVATE_KEY: pem })).toMatch(/DKIM_DOMAIN="not a domain": must be a domain name/);
    });
  });
});
