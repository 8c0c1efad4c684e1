// The editorial record kinds of the admin API (spec 001 "Admin resources"), described once so the
// list/get/create/update/delete/status routes and their audit rows are the same for every kind.
import { z } from 'zod';
import { blurbSamples, contentBlocks, editorTemplates, resources, storyPromptCollections, storyPromptLibrary } from '@story/db';

const text = (max: number) => z.string().trim().min(1).max(max);
const optText = (max: number) => z.string().trim().max(max).nullish();
const settings = z.record(z.string(), z.unknown());

export const contentKinds = {
  content_block: {
    table: contentBlocks,
    path: '/api/content-blocks',
    op: 'ContentBlock',
    moderated: true,
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
    create: z
      .object({
        title: text(300),
        description: optText(5000),
        category: optText(100),
        url: z.url({ protocol: /^https?$/ }).max(2000).nullish(),
        storage_key: optText(500),
        mime_type: optText(200),
      }),
  },
} as const;

export type ContentKindName = keyof typeof contentKinds;
export type ContentKind = (typeof contentKinds)[ContentKindName];
