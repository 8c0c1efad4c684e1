// Process entry (deployed as its own process): see runService for the start and shutdown sequence.
import { syncAccountRoles } from '@story/auth';
import { runService } from '@story/http';
import { buildApp } from './app';
import { loadConfig } from './config';
import { startCoreWorkers } from './workers';

runService({
  name: 'core-api',
  loadConfig: () => loadConfig(),
  // Before serving: roles follow ADMIN_EMAILS/SUPPORT_EMAILS as they are now (an address taken off a
  // list loses its role at this start; every service's session check reads the stored role).
  buildApp: async (input) => {
    await syncAccountRoles(input.deps.database.sql, input.config);
    return buildApp(input);
  },
  startWorkers: startCoreWorkers,
});
