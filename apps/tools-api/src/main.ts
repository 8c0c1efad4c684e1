// Process entry (deployed as its own process): see runService for the start and shutdown sequence.
import { runService } from '@story/http';
import { buildApp } from './app';
import { loadConfig } from './config';
import { startToolsWorkers } from './workers';

runService({ name: 'tools-api', loadConfig: () => loadConfig(), buildApp, startWorkers: startToolsWorkers });
