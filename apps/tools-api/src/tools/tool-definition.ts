// One tool = one small definition: its options (zod, with defaults), an offline generator built from curated
// catalogues, the LLM prompts and content schema, SEO rules and export rows. The framework (features/generate,
// browse, pages, admin) gives every definition the generic routes of spec 002.
import type { z } from 'zod';
import type { ToolRoute } from '@story/db';
import type { Rng } from './rng';

export type ToolCluster = 'core' | 'romance' | 'family-storytelling' | 'adventure-mystery' | 'horror-comedy' | 'multi-variant';

/** Every tool's content carries a title; the rest is tool-specific. */
export type ToolContent = { title: string } & Record<string, unknown>;

export interface SeoMetadata {
  /** 50 to 60 characters. */
  title: string;
  /** 150 to 160 characters. */
  description: string;
  /** 5 to 10 keywords. */
  keywords: string[];
}

export interface ToolDefinition<O extends Record<string, unknown> = Record<string, unknown>, C extends ToolContent = ToolContent> {
  route: ToolRoute;
  cluster: ToolCluster;
  /** Display name, e.g. "Plot Twist Generator". */
  title: string;
  description: string;
  /** Share-code prefix, e.g. "pt" gives pt_7Kq2xZab. */
  sharePrefix: string;
  /** Parses the visitor's options, filling defaults; its errors name the field. */
  optionsSchema: z.ZodType<O>;
  /** Curated building blocks combined by the options: varied, sensible, labelled local by the framework. */
  generateOffline(options: O, rng: Rng): C;
  llm: {
    system: string;
    user(options: O): string;
    /** What the model must return (validated; one repair retry in the provider). */
    contentSchema: z.ZodType<C>;
  };
  /** SEO copy of one item: the framework fits lengths (seo.ts). */
  seo(content: C, options: O): { title: string; description: string; keywords: string[] };
  /** Tool-specific Field,Value rows for CSV and similar exports. */
  exportRows(content: C): [string, string][];
  /** Browse category (a genre, trope, topic ...), or null. */
  category(options: O): string | null;
  /** A short plain-text summary for listings and page descriptions. */
  summary(content: C): string;
}

/** Erase option/content types for the registry while keeping each definition checked where it is written. */
export const defineTool = <O extends Record<string, unknown>, C extends ToolContent>(def: ToolDefinition<O, C>): ToolDefinition =>
  def as unknown as ToolDefinition;
