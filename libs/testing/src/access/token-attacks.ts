// The token attacks every service's access matrix runs (CONTRACTS §2, §3): forged tokens and a session
// ended behind the token's back, each sent to a few probe routes of the service. The checks answer what went
// wrong as a list of problems (empty when all hold), so each service's test states one expectation and keeps
// its own probe routes and error shape.
import type postgres from 'postgres';
import { decodeToken, forgeTokens } from './forged-tokens';

/** The part of an inject() answer the checks read. */
export interface ProbeAnswer {
  statusCode: number;
  json(): unknown;
}

export interface TokenAttackTarget {
  /** The probe calls of the service with `token` as the bearer; a live admin's token gets 200 from each. */
  probe(token: string): Promise<ProbeAnswer[]>;
  /** Whether a 401 body is in the service's error shape. */
  isRefusalBody(body: unknown): boolean;
}

async function refusalProblems(target: TokenAttackTarget, token: string, label: string): Promise<string[]> {
  const problems: string[] = [];
  for (const [i, res] of (await target.probe(token)).entries()) {
    if (res.statusCode !== 401) problems.push(`${label}: probe ${i} answered ${res.statusCode}, not 401`);
    else if (!target.isRefusalBody(res.json())) problems.push(`${label}: probe ${i} refused with a body out of shape: ${JSON.stringify(res.json())}`);
  }
  return problems;
}

async function acceptedProblems(target: TokenAttackTarget, token: string, label: string): Promise<string[]> {
  return (await target.probe(token)).flatMap((res, i) => (res.statusCode === 200 ? [] : [`${label}: probe ${i} answered ${res.statusCode} to a live token`]));
}

/** The genuine token works; expired, tampered, alg none and another secret's tokens are each refused. */
export async function forgedTokenProblems(target: TokenAttackTarget, liveToken: string, secret: string): Promise<string[]> {
  const problems = await acceptedProblems(target, liveToken, 'genuine');
  for (const [name, token] of Object.entries(forgeTokens(liveToken, secret))) problems.push(...(await refusalProblems(target, token, name)));
  return problems;
}

/**
 * A live token works until its session row is ended as core-api's revokeSession ends it (sign-out, refresh
 * token reuse, impersonation end), then it is refused at once.
 */
export async function endedSessionProblems(target: TokenAttackTarget, sql: postgres.Sql, liveToken: string, reason: string): Promise<string[]> {
  const problems = await acceptedProblems(target, liveToken, `${reason} (before)`);
  const sid = decodeToken(liveToken).payload['sid'];
  if (typeof sid !== 'string') return [...problems, `${reason}: the token carries no sid`];
  await sql`update auth_sessions set revoked_at = now(), revoked_reason = ${reason} where id = ${sid}`;
  return [...problems, ...(await refusalProblems(target, liveToken, reason))];
}
