export * from './workspace-role';
export * from './workspace-password';
export { WorkspaceUserRepository, type WorkspaceUserRecord, type NewWorkspaceUser } from './workspace-user.repository';
export * from './workspace-session.repository';
export * from './workspace-invitation.repository';
