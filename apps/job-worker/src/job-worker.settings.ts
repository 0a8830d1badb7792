import { setting } from '@docrender/config';

export const jobWorkerSettings = {
  port: setting.int('JOB_WORKER_PORT', 'HTTP port of the job-worker probes (/v1/meta/status, /v1/meta/version).', 3002, { min: 1, max: 65535 }),
};
