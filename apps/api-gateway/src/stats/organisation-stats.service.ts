import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode, type OrganisationStatsDto } from '@docrender/contracts';
import { organisationStats, OrganisationRepository, UsageRepository } from '@docrender/persistence';
import type { Caller } from '../auth/caller';

/** Spec 4.16 / 2.12: the key's organisation, its current billing period, allowance and use (organisationStats). */
@Injectable()
export class OrganisationStatsService {
  constructor(
    private readonly organisations: OrganisationRepository,
    private readonly usage: UsageRepository,
  ) {}

  async stats(caller: Caller, now: Date = new Date()): Promise<OrganisationStatsDto> {
    const stats = await organisationStats(this.organisations, this.usage, caller.organisationId, now);
    if (stats === null) throw new DomainError(ErrorCode.NotAuthenticated, 'the API key has no associated organisation');
    return stats;
  }
}
