// Process entry (deployed as its own process): see runService for the start and shutdown sequence.
import { runService } from '@story/http';
import { buildApp } from './app';
import { loadConfig } from './config';
import { startEmailWorkers } from './workers';

runService({ name: 'email-service', loadConfig: () => loadConfig(), buildApp, startWorkers: startEmailWorkers });
