import { assetNameProblem, InvalidAssetError, removeOrganisationAsset, storeOrganisationAsset } from '@docrender/organisation-resources';
import { UsageError } from '../cli/cli-arguments';
import { defineOrganisationCommand, option } from '../cli/command';
import { readArgumentFile } from '../cli/read-file';

function assetName(name: string): string {
  const problem = assetNameProblem(name);
  if (problem) throw new UsageError('--name', problem);
  return name;
}

export const addAssetCommand = defineOrganisationCommand({
  name: 'add-asset',
  summary: 'Store an image (logo, background) or a PDF as an organisation asset that templates use as asset:<name> (images) or attach (PDFs); replaces one of the same name.',
  options: {
    name: option.value('<name>', 'the asset name, e.g. logo or backgrounds/a4.png (required)'),
    file: option.value('<path>', 'a PNG, JPEG, GIF, WebP, AVIF, SVG or PDF file (required)'),
  },
  async prepare(args, baseDir) {
    const organisationId = args.uuid('org');
    const name = assetName(args.string('name'));
    const file = await readArgumentFile('--file', baseDir, args.string('file'));
    return { organisationId, name, file };
  },
  async run(input, context) {
    try {
      return await storeOrganisationAsset(await context.blobStore(), input.organisationId, input.name, input.file);
    } catch (error) {
      if (error instanceof InvalidAssetError) throw new UsageError('--file', error.message);
      throw error;
    }
  },
});

export const removeAssetCommand = defineOrganisationCommand({
  name: 'remove-asset',
  summary: 'Delete an organisation asset; templates that still use it get an UnresolvedImage issue.',
  options: { name: option.value('<name>', 'the asset name (required)') },
  prepare(args) {
    return { organisationId: args.uuid('org'), name: assetName(args.string('name')) };
  },
  async run(input, context) {
    const removed = await removeOrganisationAsset(await context.blobStore(), input.organisationId, input.name);
    return { organisationId: input.organisationId, name: input.name, removed };
  },
});
