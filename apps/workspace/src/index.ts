export * from './workspace.definition';
export { WORKSPACE_PATH } from './http/configure-workspace-http';
