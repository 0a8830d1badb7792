import { Module } from '@nestjs/common';
import { OrganisationRepository, UsageRepository } from '@docrender/persistence';
import { PersistenceModule } from '@docrender/platform';
import { OrganisationStatsController } from './organisation-stats.controller';
import { OrganisationStatsService } from './organisation-stats.service';

/** Spec 4.16. */
@Module({
  imports: [PersistenceModule.forFeature({ repositories: [OrganisationRepository, UsageRepository] })],
  controllers: [OrganisationStatsController], providers: [OrganisationStatsService] })
export class StatsModule {}
