// POST /api/{tool}/generate: options validated by the tool's schema, limits consumed atomically, content
// produced (LLM or offline), then one transaction stores the content row, the 'generate' analytics event and
// the tools_ai_usage rows. Admin bulk jobs and samples reuse produce + store without the visitor limits.
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { isUniqueViolation, type Database, type ToolRoute, type Transaction } from '@story/db';
import { consumeCounters } from '@story/http';
import type { LanguageModel } from '@story/providers';
import type postgres from 'postgres';
import type { ToolsCaller } from '../../shared/caller';
import type { RateLimitMeta } from '../../shared/envelope';
import { toIso } from '../../shared/dates';
import { toolsError } from '../../shared/errors';
import { generateChecks, recordLimitHit } from '../../shared/limits';
import { fitSeo, toolDefinition, UnusableInputError, type Rng, type SeoMetadata, type ToolContent } from '../../tools';
import { produceContent, tokensOf, type ProducedContent } from './content-producer';
import { createGenerateRepository, type NewAiUsage } from './generate.repository';

export const ANONYMOUS_CONTENT_HOURS = 24;
const SHARE_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** pt_7Kq2xZab: the tool's prefix and 8 characters from an unambiguous alphabet (about 46 bits). */
export function newShareCode(prefix: string): string {
  const bytes = randomBytes(8);
  let code = '';
  for (const b of bytes) code += SHARE_CODE_ALPHABET[b % SHARE_CODE_ALPHABET.length];
  return `${prefix}_${code}`;
}

export interface GenerateResult {
  id: string;
  shareCode: string;
  title: string;
  content: ToolContent;
  seoMetadata: SeoMetadata;
  /**
   * Spec 002's aiMetadata {model, tokensUsed, processingTime, confidenceScore}, honest: tokensUsed is the model's
   * own count (null when no model ran), confidenceScore null (nothing measures it), isAiGenerated true only
   * when a model wrote the content.
   */
  aiMetadata: {
    model: string | null;
    provider: string;
    tokensUsed: number | null;
    processingTime: number;
    confidenceScore: number | null;
    isAiGenerated: boolean;
    fallback: boolean;
    note?: string;
  };
  isPublic: boolean;
  expiresAt: string | null;
  createdAt: string;
}

export interface StoreOptions {
  isPublic?: boolean;
  isFeatured?: boolean;
  isReviewed?: boolean;
  /** Override of the default expiry (24 hours for anonymous content, none for signed-in). */
  expiresAt?: Date | null;
  metadata?: Record<string, unknown>;
  /** For analytics: who asked (admin bulk jobs record 'bulk'). */
  origin?: 'visitor' | 'bulk' | 'sample' | 'upload';
  /** More rows written in the same transaction as the content row (flipbook pages, collection items). */
  extraWrites?: (tx: Transaction, contentId: string) => Promise<void>;
}

/** Map zod issues of the options to INVALID_INPUT naming `options.<path>`. */
export function parseOptions<O>(schema: z.ZodType<O>, raw: unknown): O {
  const parsed = schema.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) fields[['options', ...issue.path.map(String)].join('.')] = issue.message;
  const [field, message] = Object.entries(fields)[0] ?? ['options', 'Invalid options'];
  throw toolsError.invalidInput(field, `Invalid ${field}: ${message}`, { fields });
}

export function createGenerateService(deps: { db: Database; sql: postgres.Sql; llm: LanguageModel; limitScale: number; rng?: Rng }) {
  const repo = createGenerateRepository(deps.db);

  async function produce(tool: ToolRoute, options: Record<string, unknown>, userId: string | null): Promise<ProducedContent> {
    const def = toolDefinition(tool);
    try {
      return await produceContent({ llm: deps.llm, rng: deps.rng }, def, options, { userId, tool });
    } catch (err) {
      if (err instanceof UnusableInputError) throw toolsError.invalidInput(err.field, err.message);
      throw err;
    }
  }

  /** Store produced content with its SEO copy, analytics event and AI usage in one transaction (share code retried on collision). */
  async function store(
    tool: ToolRoute,
    options: Record<string, unknown>,
    produced: ProducedContent,
    caller: Pick<ToolsCaller, 'sessionId' | 'userId' | 'ipPrefix' | 'userAgent'>,
    opts: StoreOptions = {},
  ): Promise<GenerateResult> {
    const def = toolDefinition(tool);
    const seo = fitSeo(def.seo(produced.content, options), [def.title.toLowerCase(), 'free writing tool', 'creative writing']);
    const expiresAt = opts.expiresAt !== undefined ? opts.expiresAt : caller.userId === null ? new Date(Date.now() + ANONYMOUS_CONTENT_HOURS * 3_600_000) : null;
    const tokensUsed = tokensOf(produced);
    const note = produced.fallback
      ? `The ${produced.fallback.provider} model was unavailable (${produced.fallback.errorCode}); this was made by the offline generator, not by an AI model.`
      : produced.provider === 'local'
        ? 'Made by the offline generator from curated building blocks (no AI model configured).'
        : produced.provider === 'none'
          ? 'Taken as it is from the uploaded file; no AI model or generator was used.'
          : undefined;
    const metadata = { ...(opts.metadata ?? {}), origin: opts.origin ?? 'visitor', ...(produced.fallback ? { fallback: produced.fallback } : {}) };
    for (let attempt = 0; ; attempt++) {
      const shareCode = newShareCode(def.sharePrefix);
      try {
        const row = await repo.insertGenerated(
          tool,
          {
            shareCode,
            userId: caller.userId,
            sessionId: caller.sessionId,
            isPublic: opts.isPublic ?? false,
            isFeatured: opts.isFeatured ?? false,
            isReviewed: opts.isReviewed ?? false,
            seoTitle: seo.title,
            seoDescription: seo.description,
            keywords: seo.keywords,
            isAiGenerated: produced.aiGenerated,
            aiGenerationPrompt: produced.prompt,
            // Written explicitly: the column's default (0.8) would claim a confidence nobody measured.
            aiConfidence: produced.confidence,
            aiTokensUsed: tokensUsed,
            aiCostUsd: produced.costUsd,
            aiModel: produced.model,
            generationTimeMs: produced.generationTimeMs,
            content: produced.content,
            generationOptions: options,
            metadata,
            expiresAt,
            title: produced.content.title.slice(0, 300),
            category: def.category(options),
            // Not asked to be public: unlisted (its link opens it, no list shows it), never private, so the
            // share code and page spec 002 gives every item work; the owner makes it private by sharing it so.
            shareType: 'public',
          },
          {
            eventData: { model: produced.model, origin: opts.origin ?? 'visitor', generationTimeMs: produced.generationTimeMs },
            userId: caller.userId,
            sessionId: caller.sessionId || null,
            ipAddress: caller.ipPrefix,
            userAgent: caller.userAgent,
          },
          (id) => {
            // One usage row per generator call: none when nothing was generated (a PDF's own pages).
            const usage: NewAiUsage[] = [];
            if (produced.fallback) {
              usage.push({
                tool,
                contentId: null,
                sessionId: caller.sessionId || null,
                userId: caller.userId,
                provider: produced.fallback.provider,
                model: produced.fallback.model,
                tokensUsed: 0,
                costUsd: 0,
                generationTimeMs: produced.fallback.generationTimeMs,
                success: false,
                errorCode: produced.fallback.errorCode,
              });
            }
            if (produced.provider !== 'none') {
              usage.push({
                tool,
                contentId: id,
                sessionId: caller.sessionId || null,
                userId: caller.userId,
                provider: produced.provider,
                model: produced.model,
                inputTokens: produced.inputTokens,
                outputTokens: produced.outputTokens,
                tokensUsed: tokensUsed ?? 0,
                costUsd: produced.costUsd,
                generationTimeMs: produced.generationTimeMs,
                success: true,
              });
            }
            return usage;
          },
          opts.extraWrites,
        );
        return {
          id: row.id,
          shareCode,
          title: produced.content.title,
          content: produced.content,
          seoMetadata: seo,
          aiMetadata: {
            model: produced.model,
            provider: produced.provider,
            tokensUsed,
            processingTime: produced.generationTimeMs,
            confidenceScore: produced.confidence,
            isAiGenerated: produced.aiGenerated,
            fallback: produced.fallback !== undefined,
            ...(note ? { note } : {}),
          },
          isPublic: opts.isPublic ?? false,
          expiresAt: expiresAt ? expiresAt.toISOString() : null,
          createdAt: toIso(row.createdAt),
        };
      } catch (err) {
        // A share-code collision (one in 2^46 per pair) only costs a retry.
        if (attempt < 4 && isUniqueViolation(err)) continue;
        throw err;
      }
    }
  }

  return {
    produce,
    store,
    /**
     * A visitor generation: limits consumed first (atomically), then `work` produces the content, then it is
     * stored. If anything fails after the limits were taken, the use is given back.
     */
    async run(
      tool: ToolRoute,
      caller: ToolsCaller,
      work: () => Promise<{ options: Record<string, unknown>; produced: ProducedContent; store?: StoreOptions }>,
    ): Promise<{ result: GenerateResult; rateLimit: RateLimitMeta; conversionOpportunity: boolean }> {
      const limits = await consumeCounters(deps.sql, generateChecks(tool, caller), { scale: deps.limitScale, onRefused: recordLimitHit(deps.sql, caller) });
      let result: GenerateResult;
      try {
        const { options, produced, store: storeOptions } = await work();
        result = await store(tool, options, produced, caller, storeOptions);
      } catch (err) {
        // Nothing was made: the visitor keeps the use.
        await limits.refund();
        throw err;
      }
      // Anonymous visitors near their limit are shown the sign-up offer.
      const conversionOpportunity = caller.userId === null && limits.rateLimit.remaining <= 2;
      return { result, rateLimit: limits.rateLimit, conversionOpportunity };
    },

    /** The visitor flow of POST /api/{tool}/generate: options (400 before anything is counted), limits, content, storage. */
    async generate(tool: ToolRoute, rawOptions: unknown, caller: ToolsCaller) {
      const options = parseOptions(toolDefinition(tool).optionsSchema, rawOptions);
      return this.run(tool, caller, async () => ({ options, produced: await produce(tool, options, caller.userId) }));
    },
  };
}

export type GenerateService = ReturnType<typeof createGenerateService>;
