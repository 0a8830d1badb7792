import { ConfigError, loadSettings, setting } from './setting';

describe('settings', () => {
  const spec = {
    port: setting.int('PORT', 'HTTP port', 3000, { min: 1, max: 65535 }),
    debug: setting.bool('DEBUG_X', 'debug', false),
    mode: setting.oneOf('MODE_X', 'mode', ['a', 'b'] as const, 'a'),
    db: setting.optionalUrl('DATABASE_URL', 'db', ['postgres', 'postgresql']),
    code: setting.checkedString('CODE_X', 'code', 'ab', (value) => (value.length === 2 ? null : `must be two characters, got '${value}'`)),
  };

  it('applies defaults when nothing is set', () => {
    expect(loadSettings(spec, {})).toEqual({ port: 3000, debug: false, mode: 'a', db: undefined, code: 'ab' });
  });

  it('parses set values', () => {
    expect(loadSettings(spec, { PORT: '8080', DEBUG_X: 'yes', MODE_X: 'b', DATABASE_URL: 'postgres://u:p@h/db', CODE_X: ' cd ' })).toEqual({
      port: 8080, debug: true, mode: 'b', db: 'postgres://u:p@h/db', code: 'cd',
    });
  });

  it.each([
    [{ PORT: 'abc' }, /^PORT: must be a whole number from 1 to 65535, got 'abc'$/],
    [{ PORT: '70000' }, /^PORT: /],
    [{ DEBUG_X: 'maybe' }, /^DEBUG_X: must be true or false/],
    [{ MODE_X: 'c' }, /^MODE_X: must be one of a, b/],
    [{ DATABASE_URL: 'mysql://u:secret@h/db' }, /^DATABASE_URL: must use postgres or postgresql/],
    [{ CODE_X: 'abc' }, /^CODE_X: must be two characters, got 'abc'$/],
  ])('a bad value stops loading with a message naming the variable (%p)', (env, message) => {
    expect(() => loadSettings(spec, env)).toThrow(ConfigError);
    expect(() => loadSettings(spec, env)).toThrow(message);
  });

  it('never echoes a password from a bad URL', () => {
    expect(() => loadSettings(spec, { DATABASE_URL: 'not a url://u:secret@x' })).not.toThrow(/secret/);
  });
});
