import { ConfigError } from './setting';
import { DEV_API_KEY_PEPPER } from './database.settings';
import { developmentSecretsInUse, refuseDevelopmentSecrets } from './development-secrets';
import { DEV_VIEW_URL_SECRET } from './view-url.settings';

const OWN = { VIEW_URL_SECRET: 'a-real-view-url-secret-0123456789', API_KEY_PEPPER: 'a-real-api-key-pepper-0123456789' };

describe('issue 17 item 5: the public development secrets', () => {
  it('are found when unset or set to the documented default, and not otherwise', () => {
    expect(developmentSecretsInUse({})).toEqual(['VIEW_URL_SECRET', 'API_KEY_PEPPER']);
    expect(developmentSecretsInUse({ VIEW_URL_SECRET: DEV_VIEW_URL_SECRET, API_KEY_PEPPER: DEV_API_KEY_PEPPER })).toEqual(['VIEW_URL_SECRET', 'API_KEY_PEPPER']);
    expect(developmentSecretsInUse({ ...OWN, API_KEY_PEPPER: DEV_API_KEY_PEPPER })).toEqual(['API_KEY_PEPPER']);
    expect(developmentSecretsInUse(OWN)).toEqual([]);
  });

  it('stop a multi-process app with a ConfigError naming the setting, unless ALLOW_DEVELOPMENT_SECRETS=true', () => {
    expect(() => refuseDevelopmentSecrets({ API_KEY_PEPPER: OWN.API_KEY_PEPPER })).toThrow(
      new ConfigError('VIEW_URL_SECRET', 'holds the public development value (or is unset); set a secret of your own, or ALLOW_DEVELOPMENT_SECRETS=true for local development only'),
    );
    expect(() => refuseDevelopmentSecrets({ VIEW_URL_SECRET: OWN.VIEW_URL_SECRET })).toThrow(/^API_KEY_PEPPER: holds the public development value/);
    expect(() => refuseDevelopmentSecrets({ ALLOW_DEVELOPMENT_SECRETS: 'true' })).not.toThrow();
    expect(() => refuseDevelopmentSecrets(OWN)).not.toThrow();
  });
});
