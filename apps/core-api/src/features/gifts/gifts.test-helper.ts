// Helpers of the gift tests: buy a gift through the route and read its code back from the queued email
// (the only place a code exists), the way the recipient would.
import type { Sql } from 'postgres';
import type { App } from '@story/http';
import type { SignedUp } from '../../test/helper';

export const giftBody = (over: Record<string, unknown> = {}) => ({
  recipientName: 'Grandma Rose',
  recipientEmail: 'rose@example.test',
  senderName: 'Sam',
  message: 'Tell us about the farm.',
  planId: 'family-12m',
  ...over,
});

export interface Bought {
  id: string;
  code: string;
  invoiceId: string;
}

/** The code in a gift's email of the given attempt (redeem_url's query). */
export async function codeFromEmail(sql: Sql, giftId: string, attempt = 1): Promise<string> {
  const [row] = await sql<{ vars: { redeem_url: string } }[]>`
    select template_variables as vars from email_send_queue where idempotency_key = ${`gift:${giftId}:${attempt}`}`;
  if (!row) throw new Error(`no email for gift ${giftId} attempt ${attempt}`);
  const code = new URL(row.vars.redeem_url).searchParams.get('code');
  if (!code) throw new Error('no code in the redeem link');
  return code;
}

export async function buyGift(app: App, sql: Sql, buyer: SignedUp, over: Record<string, unknown> = {}): Promise<Bought> {
  const res = await app.inject({ method: 'POST', url: '/api/gifts/purchase', headers: buyer.headers, payload: giftBody(over) });
  if (res.statusCode !== 201) throw new Error(`purchase failed: ${res.statusCode} ${res.body}`);
  const id = res.json().gift.id as string;
  return { id, code: await codeFromEmail(sql, id), invoiceId: res.json().invoiceId };
}

export const redeem = (app: App, who: SignedUp, code: unknown) => app.inject({ method: 'POST', url: '/api/gifts/redeem', headers: who.headers, payload: { code } });

export async function tierOf(sql: Sql, userId: string): Promise<{ tier: string; status: string | null }> {
  const [row] = await sql<{ tier: string; status: string | null }[]>`select subscription_tier as tier, subscription_status as status from profiles where id = ${userId}`;
  if (!row) throw new Error(`no profile for ${userId}`);
  return row;
}

/** Everything a gift test may change, to assert that a refusal changed nothing. */
export async function snapshot(sql: Sql) {
  return {
    gifts: await sql`select id, status, code_hash, redeemed_by, redeemed_at, term_ends_at, delivery_status, delivery_attempts, cancelled_at, error_dismissed_at from gifts order by id`,
    invoices: await sql`select id, status from invoices order by id`,
    emails: await sql`select id, status from email_send_queue order by id`,
    profiles: await sql`select id, subscription_tier, subscription_status from profiles order by id`,
  };
}
