import { defineOrganisationCommand, option } from '../cli/command';

export const createProjectCommand = defineOrganisationCommand({
  name: 'create-project',
  summary: 'Create a project (a folder of templates).',
  options: { name: option.text('project name (required)') },
  prepare: (args) => ({ organisationId: args.uuid('org'), name: args.string('name') }),
  async run(input, context) {
    const project = await context.database.projects.create(input, context.now());
    return { id: project.id, organisationId: project.organisationId, name: project.name };
  },
});
