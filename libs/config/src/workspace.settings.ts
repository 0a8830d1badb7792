import { setting } from './setting';

/** Settings of the template workspace (apps/workspace, docs/workspace.md). */
export const workspaceSettings = {
  port: setting.int('WORKSPACE_PORT', 'HTTP port of the template workspace when it runs as its own app (the one-process mode serves it on PORT under /workspace).', 3004, {
    min: 1,
    max: 65535,
  }),
  sessionHours: setting.int('WORKSPACE_SESSION_HOURS', 'How long a workspace sign-in lasts before the user must sign in again (sign-out ends it at once).', 12, {
    min: 1,
    max: 24 * 30,
  }),
  secureCookies: setting.bool(
    'WORKSPACE_SECURE_COOKIES',
    'Marks the workspace session cookie Secure (sent over HTTPS only; browsers also send it to http://localhost). Set false only to try the workspace over plain HTTP on another host name.',
    true,
  ),
  signInAttempts: setting.int(
    'WORKSPACE_SIGN_IN_ATTEMPTS',
    'Failed workspace sign-ins allowed per e-mail address, and five times as many per client address, in 15 minutes; past it sign-in answers 429 until the window passes (counted per process).',
    10,
    { min: 1, max: 1000 },
  ),
};
