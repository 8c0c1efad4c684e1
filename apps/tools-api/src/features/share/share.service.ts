// Share links (spec 002): the owner sets a link public, private or expiring; every share is counted
// (share_count and a 'share' event with its platform). GET by share code answers the item with its
// analytics and public responses: a private link only to its owner, an expired link to nobody.
import type postgres from 'postgres';
import type { ShareType, ToolRoute } from '@story/db';
import type { ToolsCaller } from '../../shared/caller';
import { toolsError } from '../../shared/errors';
import { toIso } from '../../shared/dates';
import { canSee, changesContent } from '../../shared/visibility';
import { findLiveContent } from '../../shared/content.repository';
import { createShareRepository, type EventSource } from './share.repository';

/** An expiring link may run at most this long. */
export const MAX_SHARE_DAYS = 365;
const SHARED_RESPONSES = 20;

export interface ShareInput {
  contentId: string;
  sessionId?: string;
  shareType?: ShareType;
  expiresAt?: string;
  platform?: string;
}

export interface ShareResult {
  shareCode: string;
  shareUrl: string;
  shareType: ShareType;
  isPublic: boolean;
  expiresAt?: string;
  shareCount: number;
  createdAt: string;
}

export interface SharedItem {
  id: string;
  tool: ToolRoute;
  shareCode: string;
  title: string;
  content: Record<string, unknown>;
  shareType: ShareType;
  seoMetadata: { title: string; description: string; keywords: string[] };
  analytics: { viewCount: number; shareCount: number; responseCount: number; averageRating: number };
  responses: { id: string; title: string; content: string; wordCount: number; isPublic: boolean; createdAt: string }[];
  createdAt: string;
  expiresAt?: string;
}

const sourceOf = (caller: ToolsCaller): EventSource => ({ userId: caller.userId, sessionId: caller.sessionId || null, ipPrefix: caller.ipPrefix || null, userAgent: caller.userAgent });

export function createShareService({ sql, publicBaseUrl }: { sql: postgres.Sql; publicBaseUrl: string }) {
  const repo = createShareRepository(sql);
  const shareUrl = (tool: ToolRoute, code: string) => `${publicBaseUrl.replace(/\/+$/, '')}/${tool}/${encodeURIComponent(code)}/`;

  return {
    async share(tool: ToolRoute, input: ShareInput, caller: ToolsCaller, now = new Date()): Promise<ShareResult> {
      if (input.sessionId !== undefined && input.sessionId !== caller.sessionId) throw toolsError.accessDenied('sessionId does not match X-Session-ID');
      const row = await findLiveContent(sql, tool, input.contentId);
      if (!row || !canSee(row, caller)) throw toolsError.notFound();
      const owner = changesContent(row, caller);
      // Anyone who can see a public item may share its link (counted); only the owner changes how it is shared.
      if (!owner && input.shareType !== undefined && input.shareType !== row.share_type) throw toolsError.accessDenied('Only the owner can change how this item is shared');
      if (!owner && input.expiresAt !== undefined) throw toolsError.accessDenied('Only the owner can change how this item is shared');

      const type: ShareType = input.shareType ?? (owner && row.share_type === 'private' ? 'public' : row.share_type);
      let expiresAt: Date | null = type === 'expiring' && !owner ? row.share_expires_at : null;
      if (owner && type === 'expiring') {
        if (input.expiresAt === undefined) {
          if (!row.share_expires_at || row.share_type !== 'expiring') throw toolsError.invalidInput('expiresAt', 'An expiring link needs expiresAt');
          expiresAt = row.share_expires_at;
        } else {
          expiresAt = new Date(input.expiresAt);
          if (expiresAt <= now) throw toolsError.invalidInput('expiresAt', 'expiresAt must be in the future');
          if (expiresAt.getTime() - now.getTime() > MAX_SHARE_DAYS * 86_400_000) throw toolsError.invalidInput('expiresAt', `expiresAt must be within ${MAX_SHARE_DAYS} days`);
        }
      } else if (input.expiresAt !== undefined) {
        throw toolsError.invalidInput('expiresAt', 'expiresAt is only for expiring links');
      }

      const platform = input.platform ?? 'link';
      const shareCount = await repo.recordShare(tool, row.id, owner ? { shareType: type, expiresAt } : null, { platform, shareType: type, byOwner: owner }, sourceOf(caller));
      return {
        shareCode: row.share_code,
        shareUrl: shareUrl(tool, row.share_code),
        shareType: type,
        isPublic: type !== 'private',
        ...(expiresAt ? { expiresAt: expiresAt.toISOString() } : {}),
        shareCount,
        createdAt: now.toISOString(),
      };
    },

    async getShared(tool: ToolRoute, shareCode: string, caller: ToolsCaller): Promise<SharedItem> {
      const row = await findLiveContent(sql, tool, shareCode);
      // By share code only (an id here would bypass the link's own rules).
      if (!row || row.share_code !== shareCode || !canSee(row, caller, 'sharePage')) throw toolsError.notFound();

      const [viewCount, responses] = await Promise.all([
        repo.recordView(tool, row.id, { source: 'share' }, sourceOf(caller)),
        repo.publicResponses(tool, row.id, SHARED_RESPONSES),
      ]);
      const expiresAt = row.share_type === 'expiring' ? row.share_expires_at : row.expires_at;
      return {
        id: row.id,
        tool,
        shareCode: row.share_code,
        title: row.title ?? '',
        content: row.content,
        shareType: row.share_type,
        seoMetadata: { title: row.seo_title ?? row.title ?? '', description: row.seo_description ?? '', keywords: row.keywords ?? [] },
        analytics: {
          viewCount,
          shareCount: row.share_count,
          responseCount: responses.total,
          averageRating: row.rating_count > 0 ? Math.round((row.rating_sum / row.rating_count) * 100) / 100 : 0,
        },
        responses: responses.rows.map((r) => ({ id: r.id, title: r.title, content: r.content, wordCount: r.word_count, isPublic: r.is_public, createdAt: toIso(r.created_at) })),
        createdAt: row.created_at.toISOString(),
        ...(expiresAt ? { expiresAt: expiresAt.toISOString() } : {}),
      };
    },
  };
}

export type ShareService = ReturnType<typeof createShareService>;
