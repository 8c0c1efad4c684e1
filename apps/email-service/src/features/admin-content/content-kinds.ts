// The editorial record kinds of the admin API (spec 001 "Admin resources"), described once so the
// list/get/create/update/delete/status routes and their audit rows are the same for every kind.
import type { PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { badRequest } from '@story/http';
import { blurbSamples, contentBlocks, editorTemplates, resources, storyPromptCollections, storyPromptLibrary } from '@story/db';

const text = (max: number) => z.string().trim().min(1).max(max);
const optText = (max: number) => z.string().trim().max(max).nullish();
const settings = z.record(z.string(), z.unknown());

/** How one kind of admin record is stored, named and checked. */
export interface RecordKind {
  table: PgTable;
  /** Route path of the collection. */
  path: string;
  /** Suffix of the operationIds (listX s, getX, createX, ...). */
  op: string;
  /** Whether it carries the moderation status. */
  moderated: boolean;
  /** Columns (camelCase) that ?search matches. */
  search: readonly string[];
  create: z.ZodObject;
  /** The field a unique-index clash is about (409 names it). */
  unique?: string;
  /** A rule over the whole row (camelCase columns) after create or update; throws a 400 naming the field. */
  validate?: (row: Record<string, unknown>) => void;
}

export const contentKinds = {
  content_block: {
    table: contentBlocks,
    path: '/api/content-blocks',
    op: 'ContentBlock',
    moderated: true,
    unique: 'key',
    search: ['key', 'title', 'body'],
    create: z.object({
      key: z.string().trim().regex(/^[a-z0-9][a-z0-9_.-]{0,99}$/, 'lowercase letters, digits, _ . -'),
      title: optText(300),
      body: z.string().max(200_000).default(''),
      locale: z.string().trim().min(2).max(20).default('en'),
      metadata: settings.optional(),
    }),
  },
  editor_template: {
    table: editorTemplates,
    path: '/api/admin/editor-templates',
    op: 'EditorTemplate',
    moderated: true,
    search: ['name', 'description'],
    create: z.object({
      name: text(200),
      description: optText(2000),
      category: optText(100),
      content: z.string().max(500_000).default(''),
      settings: settings.optional(),
      is_active: z.boolean().optional(),
      sort_order: z.number().int().min(0).max(100_000).optional(),
    }),
  },
  story_prompt: {
    table: storyPromptLibrary,
    path: '/api/admin/story-prompts',
    op: 'StoryPrompt',
    moderated: true,
    search: ['prompt', 'category'],
    create: z.object({
      prompt: text(2000),
      category: optText(100),
      tags: z.array(z.string().trim().min(1).max(50)).max(30).optional(),
      relationship_type: optText(50),
      source: z.enum(['manual', 'ai', 'tools']).optional(),
    }),
  },
  story_prompt_collection: {
    table: storyPromptCollections,
    path: '/api/admin/story-prompt-collections',
    op: 'StoryPromptCollection',
    moderated: false,
    unique: 'slug',
    search: ['title', 'slug', 'description'],
    create: z.object({
      title: text(200),
      slug: z.string().trim().regex(/^[a-z0-9][a-z0-9-]{0,99}$/, 'lowercase letters, digits and -'),
      description: optText(2000),
      is_published: z.boolean().optional(),
      sort_order: z.number().int().min(0).max(100_000).optional(),
    }),
  },
  blurb_sample: {
    table: blurbSamples,
    path: '/api/admin/blurb-samples',
    op: 'BlurbSample',
    moderated: true,
    search: ['bookTitle', 'author', 'blurb'],
    create: z.object({
      book_title: text(300),
      author: optText(200),
      genre: optText(100),
      blurb: text(5000),
      style: z.enum(['hook', 'character', 'situation']).nullish(),
      notes: optText(2000),
      is_active: z.boolean().optional(),
    }),
  },
  resource: {
    table: resources,
    path: '/api/admin/resources',
    op: 'Resource',
    moderated: true,
    search: ['title', 'description', 'category'],
    // A resource points somewhere: a link or a stored file (the table's check, said in words first).
    validate: (row) => {
      if (!row['url'] && !row['storageKey']) throw badRequest('A resource needs url or storage_key', { field: 'url', details: { missing_fields: ['url'] } });
    },
    create: z.object({
        title: text(300),
        description: optText(5000),
        category: optText(100),
        url: z.url({ protocol: /^https?$/ }).max(2000).nullish(),
        storage_key: optText(500),
        mime_type: optText(200),
    }),
  },
} satisfies Record<string, RecordKind>;

export type RecordKinds = Record<string, RecordKind>;
