/** A workspace user's role in its organisation (issue 35): owners manage keys and secrets, editors templates, viewers read. */
export type WorkspaceRole = 'owner' | 'editor' | 'viewer';

export const WORKSPACE_ROLES: readonly WorkspaceRole[] = ['owner', 'editor', 'viewer'];

export function isWorkspaceRole(value: unknown): value is WorkspaceRole {
  return typeof value === 'string' && (WORKSPACE_ROLES as readonly string[]).includes(value);
}

/** Whether a user of role `role` may do what needs `needed` (owner ⊃ editor ⊃ viewer). */
export function roleAllows(role: WorkspaceRole, needed: WorkspaceRole): boolean {
  return WORKSPACE_ROLES.indexOf(role) <= WORKSPACE_ROLES.indexOf(needed);
}
