import { ConfigError, loadSettings, setting } from './setting';
import { databaseSettings, DEV_API_KEY_PEPPER } from './database.settings';
import { DEV_VIEW_URL_SECRET, viewUrlSettings } from './view-url.settings';

export const developmentSecretsSettings = {
  allow: setting.bool(
    'ALLOW_DEVELOPMENT_SECRETS',
    'Lets the multi-process apps start with the public development values of VIEW_URL_SECRET and API_KEY_PEPPER (unset or the documented defaults). For local development and tests only; without it they refuse to start. The one-process mode (npm start) only warns.',
    false,
  ),
};

/** The secret settings of `env` that hold their public development value (unset counts: the default is public). */
export function developmentSecretsInUse(env: NodeJS.ProcessEnv): string[] {
  const inUse: string[] = [];
  if (loadSettings(viewUrlSettings, env).secret === DEV_VIEW_URL_SECRET) inUse.push('VIEW_URL_SECRET');
  if (loadSettings(databaseSettings, env).apiKeyPepper === DEV_API_KEY_PEPPER) inUse.push('API_KEY_PEPPER');
  return inUse;
}

/**
 * Issue 17: a deployed app must not run with secrets anyone can read in the source (links could be forged, stored
 * keys matched). Throws a ConfigError naming the first such setting the app `reads` (all by default), unless
 * ALLOW_DEVELOPMENT_SECRETS=true.
 */
export function refuseDevelopmentSecrets(env: NodeJS.ProcessEnv, reads: (variable: string) => boolean = () => true): void {
  const [first] = developmentSecretsInUse(env).filter(reads);
  if (first === undefined || loadSettings(developmentSecretsSettings, env).allow) return;
  throw new ConfigError(first, 'holds the public development value (or is unset); set a secret of your own, or ALLOW_DEVELOPMENT_SECRETS=true for local development only');
}
