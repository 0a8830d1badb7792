import { loadSettings } from '@docrender/config';
import type { ServiceDefinition } from '@docrender/platform';
import { JobWorkerModule } from './app.module';
import { jobWorkerSettings } from './job-worker.settings';

/** How the job-worker starts: used by main.ts and by the one-process launcher. */
export const jobWorkerService: ServiceDefinition = {
  name: 'job-worker',
  module: (infrastructure, logger) => JobWorkerModule.register(infrastructure, logger),
  port: (env) => loadSettings(jobWorkerSettings, env).port,
};
