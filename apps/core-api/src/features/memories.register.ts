// Memories page and archive (spec 000 Memories and archive): the merged list, media streaming and the
// download-everything archive, all behind the auth hook; access decided per request by memories-access.
import type { App } from '@story/http';
import type { CoreFeatureDeps } from './feature-deps';
import { archiveRoutes } from './archive/archive.routes';
import { createArchiveService } from './archive/archive.service';
import { createMemoriesAccess } from './memories/memories-access';
import { createCursorCodec } from './memories/memories.cursor';
import { createMemoriesRepository } from './memories/memories.repository';
import { memoriesRoutes } from './memories/memories.routes';
import { createMemoriesService } from './memories/memories.service';

export async function registerMemories(app: App, deps: CoreFeatureDeps): Promise<void> {
  const { sql, providers, config } = deps;
  const repo = createMemoriesRepository(sql);
  const access = createMemoriesAccess({ access: deps.access, repo });
  const memories = createMemoriesService({ repo, access, cursors: createCursorCodec(config.secrets.jwtSecret), storage: providers.storage });
  const archive = createArchiveService({
    sql,
    access,
    storage: providers.storage,
    partLimitBytes: config.limits.archivePartBytes,
    log: app.log.child({ component: 'archive' }),
  });
  await app.register(async (scope) => {
    scope.addHook('onRequest', deps.authHook);
    await scope.register(memoriesRoutes({ memories }), { prefix: '/api/memories' });
    await scope.register(archiveRoutes({ archive }), { prefix: '/api/account/archive' });
  });
}
