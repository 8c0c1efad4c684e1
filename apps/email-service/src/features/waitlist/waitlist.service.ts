// The waitlist (dashboard waitlist; CONTRACTS §7 waitlist stats): a public signup queues a confirmation
// email whose token is 256-bit, single use, valid 7 days, and kept only as its sha256; confirming marks the
// entry verified and, while free places remain, free-eligible. The answer to a signup is the same whether or
// not the address was already listed, so the route cannot be used to learn who signed up.
import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, ilike, or, sql } from 'drizzle-orm';
import { waitlist, type Database } from '@story/db';
import { enqueueTemplate } from '@story/email';
import { badRequest } from '@story/http';
import { rowView } from '../admin/admin-views';

export const WAITLIST_TOKEN_TTL_MS = 7 * 86_400_000;
/** Early verified signups promised a free plan (the dashboard's free-eligible count). */
export const WAITLIST_FREE_PLACES = 1000;
const FREE_PLACES_LOCK = 727_073_691;
const RESEND_AFTER_MS = 60_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function createWaitlistService({ db, appUrl, freePlaces = WAITLIST_FREE_PLACES, now = () => new Date() }: { db: Database; appUrl: string; freePlaces?: number; now?: () => Date }) {
  return {
    async signup(input: { email: string; name?: string | null; source?: string | null }) {
      const email = input.email.trim().toLowerCase();
      const token = randomBytes(32).toString('base64url');
      await db.transaction(async (tx) => {
        const issued = { tokenIssuedAt: now().toISOString() };
        // Insert first, ON CONFLICT DO NOTHING: two signups of one new address at once no longer both find
        // no row and both insert (the second died on waitlist_email_key, a 500); the loser waits for the
        // winner's commit, inserts nothing and takes the existing row below, locked.
        const [created] = await tx
          .insert(waitlist)
          .values({ email, name: input.name ?? null, source: input.source ?? null, verificationTokenHash: hashToken(token), metadata: issued })
          .onConflictDoNothing({ target: waitlist.email })
          .returning({ id: waitlist.id });
        if (!created) {
          const [existing] = await tx.select().from(waitlist).where(eq(waitlist.email, email)).for('update');
          if (!existing || existing.verified) return; // already confirmed: nothing to send
          // A repeat within a minute sends nothing more, so the form cannot flood someone's inbox.
          const lastIssued = Date.parse(String(existing.metadata['tokenIssuedAt'] ?? ''));
          if (now().getTime() - lastIssued < RESEND_AFTER_MS) return;
          await tx.update(waitlist).set({ verificationTokenHash: hashToken(token), name: input.name ?? existing.name, metadata: { ...existing.metadata, ...issued } }).where(eq(waitlist.id, existing.id));
        }
        await enqueueTemplate(tx, {
          template: { name: 'waitlist_verify' },
          toEmail: email,
          variables: { name: input.name || 'there', verification_url: `${appUrl}/waitlist/verify?token=${token}` },
          sensitiveVariables: ['verification_url'],
        });
      });
    },

    /** One use: the hash is cleared in the same statement that verifies, so a second use finds nothing. */
    async verify(token: string) {
      const invalid = () => badRequest('This confirmation link is invalid, used or expired', { field: 'token' });
      return db.transaction(async (tx) => {
        // Serialises the free-place count, so two confirmations at once cannot both take the last place.
        await tx.execute(sql`select pg_advisory_xact_lock(${FREE_PLACES_LOCK})`);
        const [entry] = await tx.select().from(waitlist).where(eq(waitlist.verificationTokenHash, hashToken(token))).for('update');
        const issuedAt = Date.parse(String(entry?.metadata['tokenIssuedAt'] ?? entry?.createdAt?.toISOString() ?? ''));
        if (!entry || entry.verified || !(now().getTime() - issuedAt < WAITLIST_TOKEN_TTL_MS)) throw invalid();
        const taken = await tx.$count(waitlist, eq(waitlist.freeEligible, true));
        const [row] = await tx
          .update(waitlist)
          .set({ verified: true, verifiedAt: now(), verificationTokenHash: null, freeEligible: taken < freePlaces })
          .where(and(eq(waitlist.id, entry.id), eq(waitlist.verified, false)))
          .returning();
        if (!row) throw invalid();
        return { email: row.email, verified: true, freeEligible: row.freeEligible };
      });
    },

    /**
     * Dashboard waitlist numbers from the rows: a signup counts as converted when it was marked so or an
     * account with its address exists; conversionRate is converted / signups (a fraction, 0 with none).
     */
    async stats() {
      const [row] = await db.execute<{ signups: number; verified: number; converted: number; free_eligible: number }>(sql`
        select count(*)::int as signups,
               (count(*) filter (where w.verified))::int as verified,
               (count(*) filter (where w.converted_at is not null or exists (select 1 from accounts a where lower(a.email) = w.email)))::int as converted,
               (count(*) filter (where w.free_eligible))::int as free_eligible
        from waitlist w`);
      const { signups, verified, converted, free_eligible } = row!;
      return { signups, verified, converted, conversionRate: signups ? Math.round((converted / signups) * 10_000) / 10_000 : 0, freeEligible: free_eligible, freePlaces: freePlaces };
    },

    async list(query: { verified?: boolean; search?: string; limit: number; offset: number }) {
      const conditions = [
        query.verified === undefined ? undefined : eq(waitlist.verified, query.verified),
        query.search ? or(ilike(waitlist.email, `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`), ilike(waitlist.name, `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)) : undefined,
      ].filter((c) => c !== undefined);
      const where = conditions.length ? and(...conditions) : undefined;
      const rows = await db.select().from(waitlist).where(where).orderBy(desc(waitlist.createdAt)).limit(query.limit).offset(query.offset);
      const total = await db.$count(waitlist, where);
      // The token hash is a credential: never in an answer.
      const items = rows.map(({ verificationTokenHash, ...r }) => ({ ...rowView(r), pending_verification: verificationTokenHash !== null }));
      return { items, pagination: { total, limit: query.limit, offset: query.offset, hasMore: query.offset + rows.length < total } };
    },
  };
}

export type WaitlistService = ReturnType<typeof createWaitlistService>;
