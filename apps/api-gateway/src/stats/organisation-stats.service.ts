import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode, type OrganisationStatsDto } from '@docrender/contracts';
import { OrganisationRepository, UsageRepository } from '@docrender/persistence';
import type { Caller } from '../auth/caller';

/** Spec 4.16 / 2.12: the key's organisation, its current billing period, allowance and use. */
@Injectable()
export class OrganisationStatsService {
  constructor(
    private readonly organisations: OrganisationRepository,
    private readonly usage: UsageRepository,
  ) {}

  async stats(caller: Caller, now: Date = new Date()): Promise<OrganisationStatsDto> {
    const organisation = await this.organisations.findById(caller.organisationId);
    if (!organisation || organisation.deletedAt !== null) {
      throw new DomainError(ErrorCode.NotAuthenticated, 'the API key has no associated organisation');
    }
    const usage = await this.usage.getUsage(organisation.id, now);
    return {
      organisationName: organisation.name,
      periodStart: usage.periodStart.toISOString(),
      periodEnd: usage.periodEnd.toISOString(),
      tier: organisation.tier,
      includedRendersPerMonth: usage.includedPagesPerMonth,
      pagesUsedThisPeriod: usage.pagesUsed,
      pagesAvailable: Math.max(0, usage.includedPagesPerMonth - usage.pagesUsed),
      includedTokensPerMonth: usage.includedTokensPerMonth,
      tokensUsedThisPeriod: usage.tokensUsed,
      tokensAvailable: Math.max(0, usage.includedTokensPerMonth - usage.tokensUsed),
      userCount: organisation.userCount,
    };
  }
}
