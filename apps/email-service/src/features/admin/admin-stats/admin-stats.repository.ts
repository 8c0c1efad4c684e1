// The dashboard metrics of spec 001 "Admin application reference", each computed in SQL from the rows
// themselves. One statement per dashboard section, each scanning a table once with FILTER clauses
// (stories: count, word count and campaign responses in one pass), so the overview is four round trips
// run side by side. stories, books and recordings keep UTC wall time without a zone (libs/db _columns),
// so their timestamps are read `at time zone 'UTC'`.
import { sql } from 'drizzle-orm';
import type { Database } from '@story/db';

export interface UserCounts {
  total: number;
  active7d: number;
  active30d: number;
  newToday: number;
}

export interface ContentCounts {
  campaigns: number;
  activeCampaigns: number;
  promptsSent: number;
  stories: number;
  wordCount: number;
  campaignResponses: number;
  conversations: number;
  familyMembers: number;
  invitations: number;
  books: number;
  booksInProgress: number;
  images: number;
  audioRecordings: number;
}

export interface PlatformCounts {
  revenueCents: number;
  tiers: { free: number; starter: number; family: number; premium: number };
  signups: number;
  verified: number;
  converted: number;
  freeEligible: number;
}

export interface ActivityRow {
  type: 'signup' | 'campaign_created' | 'story_created' | 'conversation_response' | 'book_published';
  at: Date;
  userId: string | null;
  id: string;
  title: string | null;
}

const int = (v: unknown) => Number(v ?? 0);

export function createAdminStatsRepository(db: Database) {
  return {
    /**
     * Active = signed in, or used a session (opened or refreshed), within the window; impersonation
     * sessions are an admin's activity, not the user's, and do not count.
     */
    async users(): Promise<UserCounts> {
      // One hash aggregate by user over the window (not count(distinct), which sorts every row twice);
      // work_mem is raised for this statement only so ~100k groups stay in memory instead of spilling.
      const r = await db.transaction(async (tx) => {
        await tx.execute(sql`set local work_mem = '32MB'`);
        const [row] = await tx.execute<Record<string, unknown>>(sql`
          select
            (select count(*) from accounts) as total,
            (select count(*) from accounts where created_at >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC') as new_today,
            count(*) filter (where last_at >= now() - interval '7 days') as active7d,
            count(*) as active30d
          from (
            select user_id, max(at) as last_at from (
              select id as user_id, last_sign_in_at as at from accounts where last_sign_in_at >= now() - interval '30 days'
              union all
              select user_id, coalesce(refreshed_at, created_at) from auth_sessions
              where coalesce(refreshed_at, created_at) >= now() - interval '30 days' and user_agent is distinct from 'admin-impersonation'
            ) touched
            group by user_id
          ) active`);
        return row;
      });
      return { total: int(r?.['total']), active7d: int(r?.['active7d']), active30d: int(r?.['active30d']), newToday: int(r?.['new_today']) };
    },

    async content(): Promise<ContentCounts> {
      const [r] = await db.execute<Record<string, unknown>>(sql`
        select c.*, s.*, f.*, b.*, m.*
        from
          (select count(*) as campaigns, count(*) filter (where status = 'active') as active_campaigns, coalesce(sum(prompts_sent), 0) as prompts_sent from campaigns) c,
          (select count(*) as stories, coalesce(sum(word_count), 0) as word_count, count(*) filter (where campaign_id is not null) as campaign_responses from stories) s,
          (select (select count(*) from conversations) as conversations,
                  (select count(*) from family_members where status = 'active') as family_members,
                  (select count(*) from family_invitations) as invitations) f,
          (select count(*) as books, count(*) filter (where status = 'in_progress') as books_in_progress from books) b,
          (select (select count(*) from images) as images,
                  (select count(*) from recordings where media_type = 'audio' and status = 'completed') as audio_recordings) m`);
      return {
        campaigns: int(r?.['campaigns']),
        activeCampaigns: int(r?.['active_campaigns']),
        promptsSent: int(r?.['prompts_sent']),
        stories: int(r?.['stories']),
        wordCount: int(r?.['word_count']),
        campaignResponses: int(r?.['campaign_responses']),
        conversations: int(r?.['conversations']),
        familyMembers: int(r?.['family_members']),
        invitations: int(r?.['invitations']),
        books: int(r?.['books']),
        booksInProgress: int(r?.['books_in_progress']),
        images: int(r?.['images']),
        audioRecordings: int(r?.['audio_recordings']),
      };
    },

    /**
     * Revenue: paid invoices of the last 30 days (the processor's mirror, billing.ts). Tiers: the
     * profiles' subscription_tier, a cancelled subscription counting as free.
     */
    async platform(): Promise<PlatformCounts> {
      const [r] = await db.execute<Record<string, unknown>>(sql`
        select
          (select coalesce(sum(amount_cents), 0) from invoices where status = 'paid' and paid_at >= now() - interval '30 days') as revenue_cents,
          t.*, w.*
        from
          (select count(*) filter (where tier = 'free') as free, count(*) filter (where tier = 'starter') as starter,
                  count(*) filter (where tier = 'family') as family, count(*) filter (where tier = 'premium') as premium
           from (select case when subscription_status = 'cancelled' then 'free' else subscription_tier end as tier from profiles) p) t,
          (select count(*) as signups, count(*) filter (where verified) as verified,
                  count(*) filter (where converted_at is not null) as converted, count(*) filter (where free_eligible) as free_eligible
           from waitlist) w`);
      return {
        revenueCents: int(r?.['revenue_cents']),
        tiers: { free: int(r?.['free']), starter: int(r?.['starter']), family: int(r?.['family']), premium: int(r?.['premium']) },
        signups: int(r?.['signups']),
        verified: int(r?.['verified']),
        converted: int(r?.['converted']),
        freeEligible: int(r?.['free_eligible']),
      };
    },

    /** The newest `limit` events of each kind merged, newest first: each branch reads its own created-at index. */
    async recentActivity(limit: number): Promise<ActivityRow[]> {
      const rows = await db.execute<{ type: ActivityRow['type']; at: string | Date; user_id: string | null; id: string; title: string | null }>(sql`
        select * from (
          (select 'signup' as type, created_at as at, id as user_id, id, null::text as title from accounts order by created_at desc limit ${limit})
          union all
          (select 'campaign_created', created_at, user_id, id, title from campaigns order by created_at desc limit ${limit})
          union all
          (select 'story_created', created_at at time zone 'UTC', user_id, id, title from stories order by created_at desc limit ${limit})
          union all
          (select 'conversation_response', m.created_at, c.user_id, m.id, c.title
           from conversation_messages m join conversations c on c.id = m.conversation_id
           where m.role = 'user' order by m.created_at desc limit ${limit})
          union all
          (select 'book_published', updated_at at time zone 'UTC', user_id, id, title from books where status = 'published' order by updated_at desc limit ${limit})
        ) feed
        order by at desc, id
        limit ${limit}`);
      return rows.map((r) => ({ type: r.type, at: new Date(r.at), userId: r.user_id, id: r.id, title: r.title }));
    },
  };
}

export type AdminStatsRepository = ReturnType<typeof createAdminStatsRepository>;
