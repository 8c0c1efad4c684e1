// Privacy and data export (spec 000 User, privacy, consent; CONTRACTS §9): registered by app.ts; every route
// is authenticated. Job kinds on the core runner: data-export.build, data-export.expire (recurring),
// account.purge_storage, account.purge_prefixes.
import type { App } from '@story/http';
import { createDataExportService, DATA_EXPORT_JOB } from './data-export/data-export.service';
import { dataExportRoutes } from './data-export/data-export.routes';
import type { CoreFeatureDeps } from './feature-deps';
import { createAccountErasureService } from './privacy/account-erasure.service';
import { createPrivacyAccess } from './privacy/privacy-access';
import { privacyRoutes } from './privacy/privacy.routes';

export async function registerPrivacy(app: App, deps: CoreFeatureDeps): Promise<void> {
  const { sql, db, jobs, providers } = deps;
  const exports = createDataExportService({
    sql,
    storage: providers.storage,
    log: app.log,
    queueBuild: async (exportId, tx) => void (await jobs.enqueue(DATA_EXPORT_JOB, { exportId }, { dedupeKey: `data-export:${exportId}` }, tx)),
    wakeRunner: () => jobs.wake(),
  });
  const erasure = createAccountErasureService({
    db,
    storage: providers.storage,
    enqueue: (kind, payload, tx) => jobs.enqueue(kind, payload, {}, tx),
    scrubPayload: async (jobId, empty) => void (await sql`update jobs set payload = ${JSON.stringify(empty)}::jsonb where id = ${jobId}`),
    wakeRunner: () => jobs.wake(),
  });
  for (const job of exports.jobs) jobs.define(job);
  jobs.define(erasure.jobs.purgeKeys);
  jobs.define(erasure.jobs.purgePrefixes);

  await app.register(async (scope) => {
    scope.addHook('onRequest', deps.authHook);
    await scope.register(dataExportRoutes({ exports }));
    await scope.register(privacyRoutes({ erasure, access: createPrivacyAccess({ exports }) }));
  });
}
