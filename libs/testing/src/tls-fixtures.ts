// Test certificates for TLS servers in tests (tls/README.md): a self-signed one, as Exim's default STARTTLS
// certificate is, and one signed by a private test CA. Never used outside tests.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const DIR = path.join(__dirname, 'tls');

export interface TlsFixture {
  key: Buffer;
  cert: Buffer;
}

/** Key and certificate of a server for 127.0.0.1 / localhost. */
export function testTlsCertificate(kind: 'self-signed' | 'ca-signed'): TlsFixture {
  return { key: readFileSync(path.join(DIR, `${kind}.key`)), cert: readFileSync(path.join(DIR, `${kind}.crt`)) };
}

/** Path of the test CA's certificate (for SMTP_URL's tls.caFile). */
export const testCaFile = path.join(DIR, 'ca.crt');
