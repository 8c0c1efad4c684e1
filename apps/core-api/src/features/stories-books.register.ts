// Stories, books, templates and their PDF export (spec 000 Stories, Books, Templates): registered by app.ts
// at the root scope; public routes here, authenticated ones in a scope with deps.authHook.
import type { App } from '@story/http';
import { bookExportRoutes } from './book-export/book-export.routes';
import { BOOK_EXPORT_JOB, createBookExportService } from './book-export/book-export.service';
import { booksRoutes } from './books/books.routes';
import { createBooksService } from './books/books.service';
import type { CoreFeatureDeps } from './feature-deps';
import { sharedStoryRoutes, storiesRoutes } from './stories/stories.routes';
import { createStoriesService } from './stories/stories.service';
import { templatesRoutes } from './templates/templates.routes';
import { createTemplatesService } from './templates/templates.service';

export async function registerStoriesAndBooks(app: App, deps: CoreFeatureDeps): Promise<void> {
  const { sql, access, providers, config } = deps;
  const publicBaseUrl = (config.publicBaseUrl ?? `http://${config.host}:${config.port}`).replace(/\/+$/, '');
  const templates = createTemplatesService({ sql });
  const stories = createStoriesService({ sql, access, publicBaseUrl });
  const books = createBooksService({ sql, access, templates, llm: providers.llm, log: (err) => app.log.warn({ err }, 'content analysis: model call failed, offline answer kept') });
  const exports = createBookExportService({
    sql,
    access,
    storage: providers.storage,
    templates,
    log: app.log,
    queueRender: async (exportJobId, tx) => void (await deps.jobs.enqueue(BOOK_EXPORT_JOB, { exportJobId }, { dedupeKey: `book-export:${exportJobId}` }, tx)),
    wakeRunner: () => deps.jobs.wake(),
  });
  deps.jobs.define(exports.job);

  await app.register(sharedStoryRoutes({ stories }));
  await app.register(async (scope) => {
    scope.addHook('onRequest', deps.authHook);
    await scope.register(storiesRoutes({ stories, rateLimit: deps.rateLimit }), { prefix: '/api/stories' });
    await scope.register(templatesRoutes({ templates }));
    await scope.register(booksRoutes({ books, onDeleted: (keys) => void removeFiles(keys) }), { prefix: '/api/books' });
    await scope.register(bookExportRoutes({ exports }), { prefix: '/api/books' });
  });

  /** Stored PDFs of a deleted book: best effort after the commit (an orphan file costs storage, not correctness). */
  async function removeFiles(keys: string[]): Promise<void> {
    for (const key of keys) await providers.storage.delete(key).catch((err: unknown) => app.log.warn({ err, key }, 'could not delete an export file'));
  }
}
