import { CommandArguments, UsageError, type OptionSpecs } from './cli-arguments';

const options: OptionSpecs = {
  org: { type: 'string', description: '' },
  pages: { type: 'string', description: '' },
  env: { type: 'string', description: '' },
  publish: { type: 'boolean', description: '' },
  file: { type: 'string', multiple: true, description: '' },
};

const parse = (...argv: string[]) => CommandArguments.parse(argv, options, []);
const problem = (f: () => unknown): string => {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('no usage error');
};

describe('CommandArguments', () => {
  it('reads typed values and flags', () => {
    const args = parse('--org', 'A7E0D3A6-0F2B-4C1D-9E8F-0123456789AB', '--pages', '12', '--publish', '--file', 'a', '--file', 'b');
    expect(args.uuid('org')).toBe('a7e0d3a6-0f2b-4c1d-9e8f-0123456789ab');
    expect(args.int('pages', 0, { min: 0 })).toBe(12);
    expect(args.flag('publish')).toBe(true);
    expect(args.list('file')).toEqual(['a', 'b']);
    expect(args.optionalString('env')).toBeUndefined();
  });

  it('names the bad argument in every error', () => {
    expect(problem(() => parse('--colour', 'red'))).toBe('--colour: unknown option');
    expect(problem(() => parse('--org'))).toBe('--org: needs a value');
    expect(problem(() => parse('--publish=yes'))).toBe('--publish: takes no value');
    expect(problem(() => parse('stray'))).toBe('stray: unexpected argument');
    expect(problem(() => parse('--org', 'x').uuid('org'))).toBe("--org: must be a UUID, got 'x'");
    expect(problem(() => parse().uuid('org'))).toBe('--org: is required');
    expect(problem(() => parse('--pages', '-1'))).toBe("--pages: a value starting with '-' must be written --pages=<value>");
    expect(problem(() => parse('--pages=-1').int('pages', 0, { min: 0 }))).toBe("--pages: must be a whole number from 0 to 2147483647, got '-1'");
    expect(problem(() => parse('--pages', '1.5').int('pages', 0, { min: 0 }))).toMatch(/^--pages: /);
    expect(problem(() => parse('--env', 'dev').oneOf('env', ['test', 'production']))).toBe("--env: must be one of test, production, got 'dev'");
    expect(problem(() => parse('--org', '  ').string('org'))).toBe('--org: must not be empty');
  });

  it('takes declared positionals and refuses extra ones', () => {
    const args = CommandArguments.parse(['seed.json'], {}, ['file.json']);
    expect(args.positional(0, 'file.json')).toBe('seed.json');
    expect(problem(() => CommandArguments.parse([], {}, ['file.json']).positional(0, 'file.json'))).toBe('<file.json>: is required');
    expect(problem(() => CommandArguments.parse(['a', 'b'], {}, ['file.json']))).toBe('b: unexpected extra argument after <file.json>');
  });
});
