import type { WorkspaceSessionRepository } from '@docrender/persistence';

/** How long a session lasts (WORKSPACE_SESSION_HOURS), in milliseconds. */
export const SESSION_LIFETIME_MS = Symbol('SESSION_LIFETIME_MS');

/**
 * What the workspace's guard needs of the sessions: WorkspaceAuthModule declares WorkspaceSessionRepository and exports
 * only this, so the guard resolves in every feature module while the repository stays the auth module's.
 */
export const WORKSPACE_SESSIONS = Symbol('WorkspaceSessions');
export type SessionLookup = Pick<WorkspaceSessionRepository, 'find'>;
