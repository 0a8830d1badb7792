import type { OrganisationStatsDto } from '@docrender/contracts';
import type { OrganisationRepository } from '../repositories/organisation.repository';
import type { UsageRepository } from '../repositories/usage.repository';

/**
 * Spec 2.12 / 4.16: an organisation's current billing period, allowance and use — the figures of `GET /v1/organisation/
 * stats` and of the workspace's usage page, computed in one place. Null for an unknown or deleted organisation.
 */
export async function organisationStats(
  organisations: OrganisationRepository,
  usage: UsageRepository,
  organisationId: string,
  now: Date = new Date(),
): Promise<OrganisationStatsDto | null> {
  const organisation = await organisations.findById(organisationId);
  if (!organisation || organisation.deletedAt !== null) return null;
  const period = await usage.getUsage(organisation.id, now);
  return {
    organisationName: organisation.name,
    periodStart: period.periodStart.toISOString(),
    periodEnd: period.periodEnd.toISOString(),
    tier: organisation.tier,
    includedRendersPerMonth: period.includedPagesPerMonth,
    pagesUsedThisPeriod: period.pagesUsed,
    pagesAvailable: Math.max(0, period.includedPagesPerMonth - period.pagesUsed),
    includedTokensPerMonth: period.includedTokensPerMonth,
    tokensUsedThisPeriod: period.tokensUsed,
    tokensAvailable: Math.max(0, period.includedTokensPerMonth - period.tokensUsed),
    userCount: organisation.userCount,
  };
}
