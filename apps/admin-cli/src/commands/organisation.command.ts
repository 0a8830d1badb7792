import { provisionOrganisation } from '@docrender/persistence';
import { UsageError } from '../cli/cli-arguments';
import { defineCommand, defineOrganisationCommand, option } from '../cli/command';

export const createOrganisationCommand = defineCommand({
  name: 'create-org',
  summary: 'Create an organisation (with its webhook signing secret and current billing period).',
  options: {
    name: option.text('display name (required)'),
    tier: option.text('plan tier (default free)'),
    'included-pages': option.count('pages per month (default 100)'),
    'included-tokens': option.count('AI tokens per month (default 0)'),
    'retention-days': option.count('purge stored PDFs older than n days (default: keep)'),
    'user-count': option.count('users in the organisation (default 1)'),
    'period-start': option.value('<ISO date>', 'start of the first monthly billing period (default: 1st of this month)'),
    id: option.uuid('use this id (default: a new one)'),
  },
  prepare(args) {
    const periodStart = args.optionalString('period-start');
    const billingPeriodStart = periodStart === undefined ? undefined : new Date(periodStart);
    if (billingPeriodStart && Number.isNaN(billingPeriodStart.getTime())) {
      throw new UsageError('--period-start', `must be an ISO 8601 date, got '${periodStart}'`);
    }
    return {
      id: args.optionalUuid('id'),
      name: args.string('name'),
      tier: args.optionalString('tier') ?? 'free',
      includedPagesPerMonth: args.int('included-pages', 100, { min: 0 }),
      includedTokensPerMonth: args.int('included-tokens', 0, { min: 0 }),
      retentionDays: args.optionalInt('retention-days', { min: 1 }) ?? null,
      userCount: args.int('user-count', 1, { min: 0 }),
      billingPeriodStart,
    };
  },
  async run(input, context) {
    if (input.id && (await context.database.organisations.findById(input.id))) throw new UsageError('--id', `organisation ${input.id} already exists`);
    const { organisation, webhookSecret } = await context.database.transaction((r) => provisionOrganisation(r, input, context.now()));
    return {
      organisation: {
        id: organisation.id,
        name: organisation.name,
        tier: organisation.tier,
        includedRendersPerMonth: organisation.includedPagesPerMonth,
        includedTokensPerMonth: organisation.includedTokensPerMonth,
        retentionDays: organisation.retentionDays,
        userCount: organisation.userCount,
        billingPeriodStart: organisation.billingPeriodStart.toISOString(),
        billingPeriodEnd: organisation.billingPeriodEnd.toISOString(),
      },
      webhookSecret,
    };
  },
});

export const deleteOrganisationCommand = defineOrganisationCommand({
  name: 'delete-org',
  summary: 'Delete an organisation: its API keys then answer 401 NotAuthenticated; its data stays.',
  async run({ organisationId }, context) {
    const now = context.now();
    await context.database.organisations.markDeleted(organisationId, now);
    return { id: organisationId, deletedAt: now.toISOString() };
  },
});

const suspension = (name: string, suspended: boolean, summary: string) =>
  defineOrganisationCommand({
    name,
    summary,
      async run({ organisationId }, context) {
      const now = context.now();
      await context.database.organisations.setSuspended(organisationId, suspended, now);
      return { id: organisationId, suspended, at: now.toISOString() };
    },
  });

export const suspendOrganisationCommand = suspension(
  'suspend-org',
  true,
  'Suspend an organisation: it may still read, but renders and writes answer 403 Forbidden until resume-org.',
);

export const resumeOrganisationCommand = suspension('resume-org', false, 'Lift the suspension of an organisation.');
