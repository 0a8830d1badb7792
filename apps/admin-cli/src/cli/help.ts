import type { CommandDefinition } from './command';

const PROGRAM = 'npm run admin --';

/** The usage text: every command with its options, or one command in detail. */
export function helpText(commands: readonly CommandDefinition[], only?: CommandDefinition): string {
  if (only) {
    const lines = [`${PROGRAM} ${only.name}${only.positionals.map((p) => ` <${p.name}>`).join('')} [options]`, '', only.summary, ''];
    for (const p of only.positionals) lines.push(`  <${p.name}>  ${p.description}`);
    for (const [name, spec] of Object.entries(only.options)) {
      lines.push(`  --${name}${spec.type === 'string' ? ` ${spec.valueName ?? '<value>'}` : ''}  ${spec.description}`);
    }
    return lines.join('\n') + '\n';
  }
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    `Usage: ${PROGRAM} <command> [options]     (${PROGRAM} help <command> for its options)`,
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Each command prints JSON on success. A bad argument prints one line naming it and exits 2; other failures exit 1.',
    'Database: DATABASE_URL, or (unset) the embedded PostgreSQL of one-process mode under EMBEDDED_PG_DATA_DIR —',
    'reused while `npm start` runs, started for the command otherwise. Migrations are applied first.',
    '',
  ].join('\n');
}
