/** The apps that serve HTTP, each with the setting naming the port it serves (its probes and metrics among it). */
export const SERVING_APPS = [
  { app: 'api-gateway', portSetting: 'PORT' },
  { app: 'render-service', portSetting: 'RENDER_SERVICE_PORT' },
  { app: 'job-worker', portSetting: 'JOB_WORKER_PORT' },
  { app: 'webhook-dispatcher', portSetting: 'WEBHOOK_DISPATCHER_PORT' },
  { app: 'workspace', portSetting: 'WORKSPACE_PORT' },
] as const;

/** Every image the project ships: the serving apps and the admin CLI, which serves none. */
export const IMAGES = [...SERVING_APPS, { app: 'admin-cli', portSetting: undefined }] as const;
