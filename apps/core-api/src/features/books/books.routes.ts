// /api/books (authenticated scope): list, create, read, update, delete, chapters, content analysis.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { coreErrorSchema, errorResponses, routeMedia } from '@story/http';
import type { BooksService } from './books.service';
import { addChapterBody, analysisBody, analysisView, bookParams, bookSummary, bookView, chapterParams, createBookBody, reorderBody, updateBookBody } from './books.schemas';

const tags = ['books'];
const security = [{ bearerAuth: [] }];
const bookAnswer = z.object({ book: bookView });

export const booksRoutes =
  ({ books, onDeleted }: { books: BooksService; onDeleted?: (storageKeys: string[]) => void }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/',
      {
        schema: {
          operationId: 'listBooks',
          summary: "The caller's books, and the books of family the caller shares an active group with: every Book field with story_ids and chapters [{id, chapter_number, title, word_count, status}] (no chapter text), plus chapter_count",
          tags,
          security,
          headers: z.object({ 'if-none-match': z.string().max(512).optional().meta({ description: 'the ETag of a list the client holds: 304 while it is still current' }) }),
          response: {
            200: z.object({ books: z.array(bookSummary), familyBooks: z.array(bookSummary) }),
            304: z.null().meta({ description: 'The list is unchanged since the ETag sent in If-None-Match' }),
            ...errorResponses(coreErrorSchema, [401, 429] as const),
          },
          ...routeMedia({
            answers: { 304: null },
            headers: {
              200: { ETag: { description: "The list's version: send it back in If-None-Match", schema: { type: 'string' } } },
              304: { ETag: { description: "The list's version", schema: { type: 'string' } } },
            },
          }),
        },
      },
      // Already JSON (built by PostgreSQL in the declared shape): sent as is, not serialised again.
      async (req, reply) => {
        const { etag, body } = await books.listJson(callerOf(req).userId, req.headers['if-none-match']);
        reply.header('etag', etag);
        // No payload at all (not a serialised null): a 304 carries no body.
        if (body === null) return reply.code(304).send(undefined as never);
        return reply.type('application/json; charset=utf-8').send(body as never);
      },
    );

    app.post(
      '/',
      {
        schema: {
          operationId: 'createBook',
          summary: 'Create a book; selectedStories become its chapters in order',
          tags,
          security,
          body: createBookBody,
          response: {
            201: z.object({ book: bookView, message: z.string(), chapters_imported: z.number().int() }),
            ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 409, 413, 415, 429] as const),
          },
        },
      },
      async (req, reply) => reply.status(201).send(await books.create(callerOf(req).userId, req.body)),
    );

    app.post(
      '/content-analysis',
      {
        schema: {
          operationId: 'analyseBookContent',
          summary: 'Word counts, reading time, order by the years mentioned, gaps and suggestions for a book or a set of stories',
          tags,
          security,
          body: analysisBody,
          response: { 200: analysisView, ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 415, 429] as const) },
        },
      },
      async (req) => books.analyse(callerOf(req).userId, req.body),
    );

    app.get(
      '/:bookId',
      {
        schema: {
          operationId: 'getBook',
          summary: 'One book with its chapters',
          tags,
          security,
          params: bookParams,
          response: { 200: bookAnswer, ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 429] as const) },
        },
      },
      async (req) => ({ book: await books.get(callerOf(req).userId, req.params.bookId) }),
    );

    app.put(
      '/:bookId',
      {
        schema: {
          operationId: 'updateBook',
          summary: "Change a book's fields (chapters have their own routes)",
          tags,
          security,
          params: bookParams,
          body: updateBookBody,
          response: { 200: bookAnswer, ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 413, 415, 429] as const) },
        },
      },
      async (req) => ({ book: await books.update(callerOf(req).userId, req.params.bookId, req.body) }),
    );

    app.delete(
      '/:bookId',
      {
        schema: {
          operationId: 'deleteBook',
          summary: 'Delete a book (its stories stay in the library)',
          tags,
          security,
          params: bookParams,
          response: { 200: z.object({ success: z.literal(true), id: z.uuid() }), ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 429] as const) },
        },
      },
      async (req) => {
        const files = await books.remove(callerOf(req).userId, req.params.bookId);
        onDeleted?.(files);
        return { success: true as const, id: req.params.bookId };
      },
    );

    app.post(
      '/:bookId/chapters',
      {
        schema: {
          operationId: 'addBookChapter',
          summary: 'Add a chapter: a story from the library, or the story of a recording or conversation',
          tags,
          security,
          params: bookParams,
          body: addChapterBody,
          response: { 201: bookAnswer, ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 409, 415, 429] as const) },
        },
      },
      async (req, reply) => reply.status(201).send({ book: await books.addChapter(callerOf(req).userId, req.params.bookId, req.body) }),
    );

    app.put(
      '/:bookId/chapters/order',
      {
        schema: {
          operationId: 'reorderBookChapters',
          summary: 'Put the chapters in this order (every chapter exactly once)',
          tags,
          security,
          params: bookParams,
          body: reorderBody,
          response: { 200: bookAnswer, ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 415, 429] as const) },
        },
      },
      async (req) => ({ book: await books.reorder(callerOf(req).userId, req.params.bookId, req.body.storyIds) }),
    );

    app.delete(
      '/:bookId/chapters/:storyId',
      {
        schema: {
          operationId: 'removeBookChapter',
          summary: 'Remove a chapter (the story stays in the library)',
          tags,
          security,
          params: chapterParams,
          response: { 200: bookAnswer, ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 429] as const) },
        },
      },
      async (req) => ({ book: await books.removeChapter(callerOf(req).userId, req.params.bookId, req.params.storyId) }),
    );
  };
