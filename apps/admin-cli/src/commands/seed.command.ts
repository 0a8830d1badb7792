import path from 'node:path';
import { applySeed, readSeedFile, SeedFileError } from '@docrender/persistence';
import { InvalidAssetError, storeOrganisationAsset, type StoredAsset } from '@docrender/organisation-resources';
import type { BlobStore } from '@docrender/storage';
import { defineCommand } from '../cli/command';
import { readArgumentFile } from '../cli/read-file';

export const seedCommand = defineCommand({
  name: 'seed',
  summary: 'Apply a declarative seed file idempotently (docs/seed-file.md) and print the resulting ids.',
  positionals: [{ name: 'file.json', description: 'the seed file; { "file": … } references are relative to it' }],
  async prepare(args, baseDir) {
    const file = path.resolve(baseDir, args.positional(0, 'file.json'));
    // Read and validated before connecting; applySeed validates again and resolves the file references.
    const seed = await readSeedFile(file);
    const seedDir = path.dirname(file);
    // The asset images are read before anything is written, so a missing file changes nothing.
    const assets = await Promise.all(
      seed.organisations.map((org, i) =>
        Promise.all((org.assets ?? []).map(async (asset, j) => ({ name: asset.name, at: `organisations[${i}].assets[${j}]`, bytes: await readArgumentFile(`organisations[${i}].assets[${j}].file`, seedDir, asset.file) }))),
      ),
    );
    return { seed, seedDir, assets };
  },
  async run(input, context) {
    const result = await applySeed(context.database, input.seed, input.seedDir, { now: context.now() });
    // Assets go to the blob store after the database transaction: storing is idempotent (same name, same bytes).
    let store: BlobStore | null = null;
    const organisations = [];
    for (const [i, organisation] of result.organisations.entries()) {
      const assets: Omit<StoredAsset, 'organisationId'>[] = [];
      for (const asset of input.assets[i]) {
        try {
          const { organisationId: _organisationId, ...stored } = await storeOrganisationAsset((store ??= await context.blobStore()), organisation.id, asset.name, asset.bytes);
          assets.push(stored);
        } catch (error) {
          if (error instanceof InvalidAssetError) throw new SeedFileError(`${asset.at}.file`, error.message);
          throw error;
        }
      }
      organisations.push(assets.length === 0 ? organisation : { ...organisation, assets });
    }
    return { organisations };
  },
});
