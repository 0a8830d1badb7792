import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { withSettingsTable } from './settings-catalog';

/** `npm run docs:settings`: rewrites the README's configuration table from the settings declared in code. */
const readmePath = path.resolve(process.argv[2] ?? 'README.md');
writeFileSync(readmePath, withSettingsTable(readFileSync(readmePath, 'utf8')));
process.stdout.write(`settings table written to ${readmePath}\n`);
