/** How long a session lasts (WORKSPACE_SESSION_HOURS), in milliseconds. */
export const SESSION_LIFETIME_MS = Symbol('SESSION_LIFETIME_MS');
