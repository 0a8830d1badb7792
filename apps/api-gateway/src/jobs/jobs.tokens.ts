/** The JOBS_* settings (JobsSettings of @docrender/config), read once at start. */
export const JOBS_SETTINGS = Symbol('JobsSettings');
