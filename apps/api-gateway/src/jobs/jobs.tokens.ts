/** The JOBS_* settings (JobsSettings of @docrender/config), read once at start. */
export const JOBS_SETTINGS = Symbol('JobsSettings');

/** The egress policy (EGRESS_ALLOW_HTTP / EGRESS_ALLOW_PRIVATE) a callback URL is checked against at enqueue. */
export const CALLBACK_EGRESS_POLICY = Symbol('CallbackEgressPolicy');
