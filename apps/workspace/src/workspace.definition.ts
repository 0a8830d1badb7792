import { renderBudgetSettings, workspaceSettings } from '@docrender/config';
import type { ServiceDefinition } from '@docrender/platform';
import { configureWorkspaceHttp } from './http/configure-workspace-http';
import { WorkspaceModule } from './workspace.module';

/** How the template workspace starts: used by main.ts (its own app) and by the one-process launcher (under /workspace). */
export const workspaceService: ServiceDefinition<true> = {
  name: 'workspace',
  database: true,
  settings: [workspaceSettings, renderBudgetSettings],
  module: ({ infrastructure }) => WorkspaceModule.register(infrastructure),
  port: (settings) => settings.get(workspaceSettings).port,
  configure: configureWorkspaceHttp,
};
