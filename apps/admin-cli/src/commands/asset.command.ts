import { assetNameProblem, InvalidAssetError, removeOrganisationAsset, storeOrganisationAsset } from '@docrender/organisation-resources';
import { UsageError } from '../cli/cli-arguments';
import { defineCommand, liveOrganisation, ORG_OPTION } from '../cli/command';
import { readArgumentFile } from '../cli/read-file';

function assetName(name: string): string {
  const problem = assetNameProblem(name);
  if (problem) throw new UsageError('--name', problem);
  return name;
}

export const addAssetCommand = defineCommand({
  name: 'add-asset',
  summary: 'Store an image (logo, background) or a PDF as an organisation asset that templates use as asset:<name> (images) or attach (PDFs); replaces one of the same name.',
  options: {
    ...ORG_OPTION,
    name: { type: 'string', valueName: '<name>', description: 'the asset name, e.g. logo or backgrounds/a4.png (required)' },
    file: { type: 'string', valueName: '<path>', description: 'a PNG, JPEG, GIF, WebP, AVIF, SVG or PDF file (required)' },
  },
  async prepare(args, baseDir) {
    const organisationId = args.uuid('org');
    const name = assetName(args.string('name'));
    const file = await readArgumentFile('--file', baseDir, args.string('file'));
    return { organisationId, name, file };
  },
  async run(input, context) {
    await liveOrganisation(context, input.organisationId);
    try {
      return await storeOrganisationAsset(await context.blobStore(), input.organisationId, input.name, input.file);
    } catch (error) {
      if (error instanceof InvalidAssetError) throw new UsageError('--file', error.message);
      throw error;
    }
  },
});

export const removeAssetCommand = defineCommand({
  name: 'remove-asset',
  summary: 'Delete an organisation asset; templates that still use it get an UnresolvedImage issue.',
  options: {
    ...ORG_OPTION,
    name: { type: 'string', valueName: '<name>', description: 'the asset name (required)' },
  },
  prepare(args) {
    return { organisationId: args.uuid('org'), name: assetName(args.string('name')) };
  },
  async run(input, context) {
    await liveOrganisation(context, input.organisationId);
    const removed = await removeOrganisationAsset(await context.blobStore(), input.organisationId, input.name);
    return { organisationId: input.organisationId, name: input.name, removed };
  },
});
