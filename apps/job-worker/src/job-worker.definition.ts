import { gatewaySettings, jobsSettings, renderBudgetSettings, viewUrlSettings } from '@docrender/config';
import type { ServiceDefinition } from '@docrender/platform';
import { JobWorkerModule } from './app.module';
import { jobWorkerSettings } from './job-worker.settings';

/**
 * How the job-worker starts: used by main.ts and by the one-process launcher. It signs the view links of the
 * documents it stores (VIEW_URL_SECRET; PUBLIC_BASE_URL, else the gateway's PORT on localhost).
 */
export const jobWorkerService: ServiceDefinition<true> = {
  name: 'job-worker',
  database: true,
  settings: [jobWorkerSettings, jobsSettings, renderBudgetSettings, viewUrlSettings, gatewaySettings],
  module: ({ infrastructure }) => JobWorkerModule.register(infrastructure),
  port: (settings) => settings.get(jobWorkerSettings).port,
};
