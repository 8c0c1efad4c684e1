// DKIM signing of outgoing mail (CONTRACTS §1 "mail signing"): DKIM_DOMAIN, DKIM_SELECTOR and
// DKIM_PRIVATE_KEY, all three or none. The key is checked at start (a key that does not parse stops the
// service naming the variable, never echoing it). nodemailer signs with RSA-SHA256 only, so the key is RSA.
// The public half goes in DNS as a TXT record at <selector>._domainkey.<domain>: "v=DKIM1; k=rsa; p=<base64 SPKI>".
import { createPrivateKey, createPublicKey } from 'node:crypto';

export interface DkimSettings {
  domainName: string;
  keySelector: string;
  /** PKCS#8 or PKCS#1 PEM. */
  privateKey: string;
}

const DOMAIN = /^(?=.{1,253}$)([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;
const SELECTOR = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,62})$/;

/** Issues as `[variable, message]` pairs; the settings when all three are set and valid. */
export function parseDkim(env: { DKIM_DOMAIN?: string; DKIM_SELECTOR?: string; DKIM_PRIVATE_KEY?: string }): { settings?: DkimSettings; issues: [string, string][] } {
  const domain = env.DKIM_DOMAIN?.trim() || undefined;
  const selector = env.DKIM_SELECTOR?.trim() || undefined;
  const keyText = env.DKIM_PRIVATE_KEY?.replace(/\\n/g, '\n').trim() || undefined;
  if (!domain && !selector && !keyText) return { issues: [] };
  const issues: [string, string][] = [];
  if (!domain) issues.push(['DKIM_DOMAIN', 'is required when DKIM_SELECTOR or DKIM_PRIVATE_KEY is set']);
  else if (!DOMAIN.test(domain)) issues.push(['DKIM_DOMAIN', 'must be a domain name such as stories.example']);
  if (!selector) issues.push(['DKIM_SELECTOR', 'is required when DKIM_DOMAIN or DKIM_PRIVATE_KEY is set']);
  else if (!SELECTOR.test(selector)) issues.push(['DKIM_SELECTOR', 'must be a DNS label such as mail2026']);
  if (!keyText) {
    issues.push(['DKIM_PRIVATE_KEY', 'is required when DKIM_DOMAIN or DKIM_SELECTOR is set']);
  } else {
    const problem = keyProblem(keyText);
    if (problem) issues.push(['DKIM_PRIVATE_KEY', problem]);
  }
  if (issues.length > 0 || !domain || !selector || !keyText) return { issues };
  return { settings: { domainName: domain.toLowerCase(), keySelector: selector, privateKey: keyText }, issues };
}

function keyProblem(pem: string): string | undefined {
  let key;
  try {
    key = createPrivateKey(pem);
  } catch {
    return 'does not parse as a PEM private key (PKCS#8 "BEGIN PRIVATE KEY" or PKCS#1 "BEGIN RSA PRIVATE KEY"; \\n accepted for newlines)';
  }
  if (key.asymmetricKeyType !== 'rsa') return `must be an RSA key (nodemailer signs rsa-sha256), not ${key.asymmetricKeyType ?? 'this type'}`;
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < 1024) return `is a ${bits}-bit RSA key; receivers ignore DKIM keys under 1024 bits (use 2048)`;
  return undefined;
}

/** The DNS TXT record value that publishes the key's public half. */
export function dkimDnsRecord(privateKeyPem: string): string {
  const spki = createPublicKey(createPrivateKey(privateKeyPem)).export({ type: 'spki', format: 'der' });
  return `v=DKIM1; k=rsa; p=${spki.toString('base64')}`;
}
