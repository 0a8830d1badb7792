import { generatePassword, hashPassword, RecordConflictError, WORKSPACE_ROLES } from '@docrender/persistence';
import { UsageError } from '../cli/cli-arguments';
import { defineOrganisationCommand, option } from '../cli/command';

/** Issue 35: workspace users are created by the operator; the password is generated and printed once. */
export const createWorkspaceUserCommand = defineOrganisationCommand({
  name: 'create-user',
  summary: 'Create a workspace user of an organisation with a role, and print its generated password once (only a scrypt hash is stored).',
  options: {
    email: option.value('<address>', 'the e-mail address the user signs in with (required)'),
    name: option.text('the name shown in the workspace and recorded on writes (required)'),
    role: option.value('owner|editor|viewer', 'owner: everything; editor: templates; viewer: reads (required)'),
  },
  prepare: (args) => {
    const email = args.string('email');
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new UsageError('--email', 'must be an e-mail address');
    const name = args.string('name').trim();
    if (name.length === 0) throw new UsageError('--name', 'must not be empty');
    return { organisationId: args.uuid('org'), email, name, role: args.oneOf('role', WORKSPACE_ROLES) };
  },
  async run(input, context) {
    const password = generatePassword();
    try {
      const user = await context.database.workspaceUsers.create({ ...input, passwordHash: await hashPassword(password) }, context.now());
      return {
        id: user.id,
        organisationId: user.organisationId,
        email: user.email,
        name: user.name,
        role: user.role,
        password,
        notice: 'This is the only time the password is shown; it cannot be recovered.',
      };
    } catch (error) {
      if (error instanceof RecordConflictError) throw new UsageError('--email', error.message);
      throw error;
    }
  },
});
