// Process entry (deployed as its own process): see runService for the start and shutdown sequence.
import { runService } from '@story/http';
import { buildApp } from './app';
import { loadConfig } from './config';
import { startCoreWorkers } from './workers';

runService({ name: 'core-api', loadConfig: () => loadConfig(), buildApp, startWorkers: startCoreWorkers });
