import path from 'node:path';
import { applySeed, readSeedFile } from '@docrender/persistence';
import { defineCommand } from '../cli/command';

export const seedCommand = defineCommand({
  name: 'seed',
  summary: 'Apply a declarative seed file idempotently (docs/seed-file.md) and print the resulting ids.',
  positionals: [{ name: 'file.json', description: 'the seed file; { "file": … } references are relative to it' }],
  async prepare(args, baseDir) {
    const file = path.resolve(baseDir, args.positional(0, 'file.json'));
    // Read and validated before connecting; applySeed validates again and resolves the file references.
    return { seed: await readSeedFile(file), seedDir: path.dirname(file) };
  },
  async run(input, context) {
    return applySeed(context.database.dataSource, input.seed, input.seedDir, {
      apiKeyPepper: context.apiKeyPepper,
      now: context.now(),
    });
  },
});
