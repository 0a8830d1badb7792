import { defineCommand, liveOrganisation, ORG_OPTION } from '../cli/command';

export const createProjectCommand = defineCommand({
  name: 'create-project',
  summary: 'Create a project (a folder of templates).',
  options: {
    ...ORG_OPTION,
    name: { type: 'string', valueName: '<text>', description: 'project name (required)' },
  },
  prepare: (args) => ({ organisationId: args.uuid('org'), name: args.string('name') }),
  async run(input, context) {
    await liveOrganisation(context, input.organisationId);
    const project = await context.database.projects.create(input, context.now());
    return { id: project.id, organisationId: project.organisationId, name: project.name };
  },
});
