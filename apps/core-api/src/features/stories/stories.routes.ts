// /api/stories: the authenticated routes (storiesRoutes) and the one public route, a shared story
// (sharedStoryRoutes), registered by stories-books.register.ts in their scopes.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { coreErrorSchema, errorResponses, type RateLimitHandle } from '@story/http';
import type { StoriesService } from './stories.service';
import {
  createStoryBody,
  headerFooterBody,
  headerFooterSchema,
  listQuery,
  shareBody,
  shareParams,
  sharedStoryView,
  shareView,
  storyList,
  storyParams,
  storyLinks,
  storyView,
  typographyBody,
  typographySchema,
  updateStoryBody,
} from './stories.schemas';

const tags = ['stories'];
const security = [{ bearerAuth: [] }];

export const storiesRoutes =
  ({ stories, rateLimit }: { stories: StoriesService; rateLimit: RateLimitHandle }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/',
      {
        schema: {
          operationId: 'listStories',
          summary: "The caller's stories and those of family the caller may see, newest first, paged",
          tags,
          security,
          querystring: listQuery,
          response: { 200: storyList, ...errorResponses(coreErrorSchema, [400, 401, 429] as const) },
        },
      },
      // Already JSON (built by PostgreSQL in the declared shape): sent as is, not serialised again.
      async (req, reply) => reply.type('application/json; charset=utf-8').send((await stories.listJson(callerOf(req).userId, req.query)) as never),
    );

    app.post(
      '/',
      {
        // Spec 000 Limits: story creation 10 per minute.
        config: { rateLimit: rateLimit.route('core.stories') },
        schema: {
          operationId: 'createStory',
          summary: 'Create a story (content sanitised to p, br, strong, em, ul, ol, li)',
          tags,
          security,
          body: createStoryBody,
          response: { 201: storyView, ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 409, 413, 415, 429] as const) },
        },
      },
      async (req, reply) => {
        const { title, campaignId, type, content, metadata } = req.body;
        const links = storyLinks(req.body);
        return reply.status(201).send(await stories.create(callerOf(req).userId, { title, campaignId, type, content, metadata, ...links, bookId: links.bookId ?? undefined }));
      },
    );

    app.get(
      '/:storyId',
      {
        schema: {
          operationId: 'getStory',
          summary: 'One story',
          tags,
          security,
          params: storyParams,
          response: { 200: storyView, ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 429] as const) },
        },
      },
      async (req) => stories.get(callerOf(req).userId, req.params.storyId),
    );

    app.put(
      '/:storyId',
      {
        schema: {
          operationId: 'updateStory',
          summary: 'Update a story (title, content, metadata, book, sources)',
          tags,
          security,
          params: storyParams,
          body: updateStoryBody,
          response: { 200: storyView, ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 409, 413, 415, 429] as const) },
        },
      },
      async (req) => {
        const { title, type, content, metadata } = req.body;
        return stories.update(callerOf(req).userId, req.params.storyId, { title, type, content, metadata, ...storyLinks(req.body) });
      },
    );

    app.delete(
      '/:storyId',
      {
        schema: {
          operationId: 'deleteStory',
          summary: 'Delete a story (its chapter leaves its book)',
          tags,
          security,
          params: storyParams,
          response: { 200: z.object({ success: z.literal(true), id: z.uuid() }), ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 429] as const) },
        },
      },
      async (req) => {
        await stories.remove(callerOf(req).userId, req.params.storyId);
        return { success: true as const, id: req.params.storyId };
      },
    );

    app.post(
      '/:storyId/share',
      {
        schema: {
          operationId: 'shareStory',
          summary: 'Create a public read-only link to a story (optionally expiring)',
          tags,
          security,
          params: storyParams,
          body: shareBody,
          response: { 201: shareView, ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 415, 429] as const) },
        },
      },
      async (req, reply) => reply.status(201).send(await stories.createShare(callerOf(req).userId, req.params.storyId, req.body ?? {})),
    );

    app.get(
      '/:storyId/share',
      {
        schema: {
          operationId: 'listStoryShares',
          summary: "A story's share links, revoked ones included",
          tags,
          security,
          params: storyParams,
          response: { 200: z.object({ shares: z.array(shareView) }), ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 429] as const) },
        },
      },
      async (req) => ({ shares: await stories.listShares(callerOf(req).userId, req.params.storyId) }),
    );

    app.delete(
      '/:storyId/share/:shareId',
      {
        schema: {
          operationId: 'revokeStoryShare',
          summary: 'Revoke a share link (it answers 404 from then on)',
          tags,
          security,
          params: shareParams,
          response: { 200: shareView, ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 429] as const) },
        },
      },
      async (req) => stories.revokeShare(callerOf(req).userId, req.params.storyId, req.params.shareId),
    );

    app.get(
      '/:storyId/typography',
      {
        schema: {
          operationId: 'getStoryTypography',
          summary: "A story's typography (the default when none was set)",
          tags,
          security,
          params: storyParams,
          response: { 200: typographySchema, ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 429] as const) },
        },
      },
      async (req) => stories.getTypography(callerOf(req).userId, req.params.storyId),
    );

    app.put(
      '/:storyId/typography',
      {
        schema: {
          operationId: 'putStoryTypography',
          summary: 'Set typography: fontFamily from the print-safe list, fontSize 8-24, lineHeight 1.0-2.5',
          tags,
          security,
          params: storyParams,
          body: typographyBody,
          response: { 200: typographySchema, ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 415, 429] as const) },
        },
      },
      async (req) => stories.putTypography(callerOf(req).userId, req.params.storyId, req.body),
    );

    app.get(
      '/:storyId/header-footer',
      {
        schema: {
          operationId: 'getStoryHeaderFooter',
          summary: "A story's running header and footer settings",
          tags,
          security,
          params: storyParams,
          response: { 200: headerFooterSchema, ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 429] as const) },
        },
      },
      async (req) => stories.getHeaderFooter(callerOf(req).userId, req.params.storyId),
    );

    app.put(
      '/:storyId/header-footer',
      {
        schema: {
          operationId: 'putStoryHeaderFooter',
          summary: 'Change header and footer settings (fields not sent keep their value)',
          tags,
          security,
          params: storyParams,
          body: headerFooterBody,
          response: { 200: headerFooterSchema, ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 415, 429] as const) },
        },
      },
      async (req) => stories.putHeaderFooter(callerOf(req).userId, req.params.storyId, req.body),
    );
  };

/** The public route: no token; a revoked, expired or unknown link is 404. */
export const sharedStoryRoutes =
  ({ stories }: { stories: StoriesService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/stories/:storyId/share/:shareId',
      {
        schema: {
          operationId: 'getSharedStory',
          summary: 'A shared story (public, read-only; counts the view)',
          tags,
          params: shareParams,
          response: { 200: sharedStoryView, ...errorResponses(coreErrorSchema, [400, 404, 429] as const) },
        },
      },
      async (req) => stories.viewShared(req.params.storyId, req.params.shareId),
    );
  };
