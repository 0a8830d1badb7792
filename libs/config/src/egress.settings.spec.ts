import { ConfigError, loadSettings } from './setting';
import { egressSettings } from './egress.settings';

describe('egress settings', () => {
  it('default to the strict policy: https only, public addresses only', () => {
    expect(loadSettings(egressSettings, {})).toEqual({ allowPrivate: false, allowHttp: false });
  });

  it('tests and local development open both', () => {
    expect(loadSettings(egressSettings, { EGRESS_ALLOW_PRIVATE: 'true', EGRESS_ALLOW_HTTP: '1' })).toEqual({ allowPrivate: true, allowHttp: true });
  });

  it('a bad value names the variable', () => {
    expect(() => loadSettings(egressSettings, { EGRESS_ALLOW_PRIVATE: 'sometimes' })).toThrow(ConfigError);
    expect(() => loadSettings(egressSettings, { EGRESS_ALLOW_PRIVATE: 'sometimes' })).toThrow(/^EGRESS_ALLOW_PRIVATE: /);
  });
});
