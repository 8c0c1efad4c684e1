// What every page module of the admin application shares: the services (built with the same factories as
// the admin API, called in-process), the signed-in user of the request, the CSRF token of its forms, and
// the helpers that answer a page, refuse a change to support accounts and read a form.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { DbClient } from '@story/db';
import { AppError, emailErrorSchema, routeMedia, type RateLimitHandle } from '@story/http';
import type { EmailServiceConfig } from '../../config';
import type { AdminStatsService } from '../admin/admin-stats/admin-stats.service';
import type { AdminUsersService } from '../admin/admin-users/admin-users.service';
import type { ImpersonationService } from '../admin/admin-users/impersonation.service';
import type { FeatureFlagsService } from '../admin/feature-flags/feature-flags.service';
import type { TemplatesService } from '../templates/templates.service';
import type { AbTestsService } from '../ab-tests/ab-tests.service';
import type { AnalyticsService } from '../analytics/analytics.service';
import type { AnalyticsRepository } from '../analytics/analytics.repository';
import type { ContentService } from '../admin-content/content.service';
import type { CurationService } from '../admin-content/curation.service';
import type { PromptsService } from '../admin-ai/prompts.service';
import type { ConversationTestsService } from '../admin-ai/conversation-tests.service';
import type { AiDebugService } from '../admin-ai/ai-debug.service';
import type { SupportService } from '../admin-support/support.service';
import type { BillingService } from '../admin-billing/billing.service';
import type { WaitlistService } from '../waitlist/waitlist.service';
import type { AuditLog } from '../admin/audit-log.repository';
import { ipPrefix } from '../admin/request-meta';
import type { CacheBus, FlagStore } from '@story/flags';
import type { Csrf } from './csrf';
import type { DashboardRepository } from './dashboard.repository';
import type { FlagPreview } from './flag-preview';
import { page, type Assets } from './layout';
import type { HtmlValue } from './html';
import type { DashboardSessions, DashboardUser, NoUser } from './session';
import type { SnapshotCache } from './snapshot-cache';
import type { Overview } from './overview';

declare module 'fastify' {
  interface FastifyRequest {
    /** The admin application's signed-in account (dashboard routes only; null elsewhere or when signed out). */
    dashboardUser: DashboardUser | null;
    /** Why dashboardUser is null. */
    dashboardProblem: NoUser | null;
  }
}

export interface DashboardServices {
  stats: AdminStatsService;
  users: AdminUsersService;
  impersonation: ImpersonationService;
  flags: FeatureFlagsService;
  flagStore: FlagStore;
  templates: TemplatesService;
  abTests: AbTestsService;
  analytics: AnalyticsService;
  analyticsRepo: AnalyticsRepository;
  content: ContentService;
  aiRecords: ContentService;
  curation: CurationService;
  prompts: PromptsService;
  conversationTests: ConversationTestsService;
  aiDebug: AiDebugService;
  support: SupportService;
  billing: BillingService;
  waitlist: WaitlistService;
  audit: AuditLog;
}

export interface DashboardContext {
  services: DashboardServices;
  repo: DashboardRepository;
  sessions: DashboardSessions;
  csrf: Csrf;
  assets: Assets;
  overview: SnapshotCache<Overview>;
  /** The billing page's figures (a group-by over every profile), read at most once a minute like the overview's. */
  billing: SnapshotCache<Awaited<ReturnType<BillingService['overview']>>>;
  flagPreview: FlagPreview;
  cacheBus: Pick<CacheBus, 'publish'>;
  database: DbClient;
  config: EmailServiceConfig;
  rateLimit: RateLimitHandle;
  migrationsFolder?: string;
}

/** Every dashboard route answers an HTML page, or (to a client that does not ask for HTML) the email-service error shape. */
const pageSchema = z.string().describe('HTML page');
const pageOrError = z.union([pageSchema, emailErrorSchema]);
export const PAGE_RESPONSES = { 200: pageSchema, 303: pageSchema, 400: pageOrError, 401: pageOrError, 403: pageOrError, 404: pageOrError, 409: pageOrError, 413: pageOrError, 415: pageOrError, 429: pageOrError };

/** Route options of a dashboard page: hidden from the OpenAPI document (it is for people), the admin limit of spec 001. */
export function pageRoute(ctx: DashboardContext, operationId: string, summary: string) {
  return {
    config: { rateLimit: ctx.rateLimit.route('email.admin') },
    schema: { operationId, summary, tags: ['dashboard'], hide: true, response: PAGE_RESPONSES, ...FORM_BODY },
  };
}

/**
 * The pages' forms post URL-encoded fields (read and checked by each page): declared, so the shared refusal
 * of bodies sent to routes that take none (libs/http input-guards) lets them through.
 */
const FORM_BODY = routeMedia({
  requestBody: {
    required: false,
    content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', additionalProperties: { type: 'string' } } } },
  },
});

/** The signed-in user of a route behind the sign-in check (dashboard.register.ts refuses the others first). */
export function userOf(request: FastifyRequest): DashboardUser {
  if (!request.dashboardUser) throw new AppError('unauthorized', 'Unauthorized');
  return request.dashboardUser;
}

export const isAdmin = (request: FastifyRequest): boolean => request.dashboardUser?.role === 'admin';

/** Changes are the admin's (spec 001 Authentication 5, CONTRACTS §7): a support account is refused before anything is read. */
export function requireAdmin(request: FastifyRequest): DashboardUser {
  const user = userOf(request);
  if (user.role !== 'admin') throw new AppError('forbidden', 'Only an admin can change this. Support accounts can read every page but change nothing.', { code: 'INSUFFICIENT_PERMISSIONS' });
  return user;
}

/** The CSRF token of the request's session, for its forms. */
export const csrfTokenOf = (ctx: DashboardContext, request: FastifyRequest): string => ctx.csrf.tokenFor(`session:${userOf(request).sessionId}`);

/** Who made a change, for the audit rows the services write (client address without its last octet). */
export function actorOf(request: FastifyRequest) {
  return { actorId: userOf(request).userId, requestId: request.id, ipPrefix: ipPrefix(request.ip) };
}

export interface SendPageInput {
  title: string;
  section?: string;
  body: HtmlValue;
  status?: number;
  flash?: { kind: 'ok' | 'error'; text: string } | null;
}

export function sendPage(ctx: DashboardContext, request: FastifyRequest, reply: FastifyReply, input: SendPageInput) {
  return reply
    .status(input.status ?? 200)
    .type('text/html; charset=utf-8')
    .send(page({ ...input, user: request.dashboardUser, csrfToken: request.dashboardUser ? csrfTokenOf(ctx, request) : '', assets: ctx.assets }));
}

/** A query or form field as one trimmed string (a repeated field keeps its last value). */
export function str(source: unknown, name: string): string | undefined {
  const v = (source as Record<string, unknown> | undefined)?.[name];
  const one = Array.isArray(v) ? v[v.length - 1] : v;
  return typeof one === 'string' ? one : undefined;
}

/** A page offset from the query (0 when absent or not a whole number). */
export function offsetOf(query: unknown): number {
  const n = Number(str(query, 'offset') ?? 0);
  return Number.isInteger(n) && n >= 0 && n <= 1_000_000 ? n : 0;
}

/** "Saved" notices travel through the redirect's query (?saved=...); only these fixed texts are shown. */
export const NOTICES: Record<string, string> = {
  flag: 'Feature flag saved.',
  template: 'Template saved: a new version was recorded.',
  rollback: 'Template rolled back: the old content is now the newest version.',
  user: 'Account updated.',
  ended: 'Impersonation ended: its token no longer works anywhere.',
  abtest: 'A/B test created and running.',
  approved: 'Blurb approved: it is now a sample.',
  rejected: 'Blurb rejected.',
  cache: 'Caches cleared in every service.',
  migrations: 'Migrations applied.',
  status: 'Status changed.',
};

export function noticeOf(query: unknown): SendPageInput['flash'] {
  const key = str(query, 'saved');
  return key && NOTICES[key] ? { kind: 'ok', text: NOTICES[key] } : null;
}
