import type { CommandDefinition } from './command';

export const PROGRAM = 'docrender';

/** Options every command accepts. */
export const GLOBAL_HELP: readonly (readonly [string, string])[] = [
  ['--key <key>', 'API key (default: SERVICE_API_KEY); its prefix selects test or production'],
  ['--base-url <url>', 'service address (default: SERVICE_BASE_URL, else http://localhost:3000)'],
  ['--json', 'print one JSON document on stdout, for scripts (no progress output)'],
  ['--quiet', 'no progress bars or notes on stderr'],
  ['--timeout <ms>', 'time limit of each request (renders: ten times this, at least 10 minutes)'],
  ['--help', 'this text, or a command’s options'],
];

function optionLines(lines: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(0, ...lines.map(([flag]) => flag.length));
  return lines.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`);
}

/** The usage text: every command, or one command with its options. */
export function helpText(commands: readonly CommandDefinition[], only?: CommandDefinition): string {
  if (only) {
    return [
      `Usage: ${PROGRAM} ${only.words.join(' ')} ${only.arguments} [options]`.replace(/\s+\[options\]$/, ' [options]'),
      '',
      only.summary,
      '',
      ...optionLines(only.help),
      '',
      'Global options:',
      ...optionLines(GLOBAL_HELP),
      '',
    ].join('\n');
  }
  const width = Math.max(...commands.map((c) => c.words.join(' ').length));
  return [
    `Usage: ${PROGRAM} <command> [options]     (${PROGRAM} <command> --help for its options; in this repository: npm run cli -- …)`,
    `       ${PROGRAM} --version                the CLI's version`,
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.words.join(' ').padEnd(width)}  ${c.summary}`),
    '',
    'Global options:',
    ...optionLines(GLOBAL_HELP),
    '',
    'Exit codes: 0 done; 1 failed, a document missing, or invalid; 2 bad usage.',
    '',
  ].join('\n');
}
