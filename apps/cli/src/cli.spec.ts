import { CLIENT_VERSION } from '@docrender/client';
import { runCli } from './cli';
import type { CliIo } from './cli/cli-io';

function io(env: NodeJS.ProcessEnv = {}): CliIo & { out: string; err: string } {
  const captured = {
    out: '',
    err: '',
    env,
    baseDir: '/tmp',
    stderrIsTty: false,
    stdout: (t: string) => void (captured.out += t),
    stderr: (t: string) => void (captured.err += t),
  };
  return captured;
}

describe('command line (no service needed)', () => {
  it('prints the usage for no command, help, and --help; a command’s options for <command> --help', async () => {
    for (const argv of [[], ['help'], ['--help']]) {
      const cli = io();
      expect(await runCli(argv, cli)).toBe(0);
      expect(cli.out).toMatch(/^Usage: docrender <command>/);
    }
    const cli = io();
    expect(await runCli(['documents', 'download', '--help'], cli)).toBe(0);
    expect(cli.out).toMatch(/^Usage: docrender documents download <documentId>\.\.\./);
    expect(cli.out).toContain('--key <key>');
  });

  it('issue 37 item 4: --version (or -V) alone prints the CLI version; render --version still names a template version', async () => {
    for (const argv of [['--version'], ['-V']]) {
      const cli = io();
      expect(await runCli(argv, cli)).toBe(0);
      expect(cli.out).toBe(`docrender ${CLIENT_VERSION}\n`);
    }
    const help = io();
    await runCli(['render', '--help'], help);
    expect(help.out).toContain('--version <n>');
  });

  it('exits 2 on bad usage, with one error line', async () => {
    const cases: [string[], NodeJS.ProcessEnv, RegExp][] = [
      [['frobnicate'], {}, /unknown command 'frobnicate'/],
      [['stats'], {}, /no API key: set SERVICE_API_KEY or pass --key/],
      [['stats', '--colour'], { SERVICE_API_KEY: 'service_test_x' }, /Unknown option '--colour'/],
      [['render', 'tid', '--data', 'd.json', '--out', 'o', '--async'], { SERVICE_API_KEY: 'service_test_x' }, /--async needs --callback-url/],
      [['render', 'tid', '--out', 'o'], { SERVICE_API_KEY: 'service_test_x' }, /--data is required/],
      [['render', '--data', 'd.json', '--out', 'o'], { SERVICE_API_KEY: 'service_test_x' }, /<templateId> is required/],
      [['jobs', 'wait'], { SERVICE_API_KEY: 'service_test_x' }, /<jobId> is required/],
      [['templates', 'list', '--take', 'many'], { SERVICE_API_KEY: 'service_test_x' }, /--take must be a whole number/],
      [['stats', '--base-url', 'ftp://x'], { SERVICE_API_KEY: 'service_test_x' }, /baseUrl must be http/],
    ];
    for (const [argv, env, message] of cases) {
      const cli = io(env);
      expect(await runCli(argv, cli)).toBe(2);
      expect(cli.err).toMatch(new RegExp(`^error: .*${message.source}`));
      expect(cli.err.trim().split('\n')).toHaveLength(1);
      expect(cli.out).toBe('');
    }
  });
});
