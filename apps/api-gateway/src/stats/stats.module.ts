import { Module } from '@nestjs/common';
import { OrganisationStatsController } from './organisation-stats.controller';
import { OrganisationStatsService } from './organisation-stats.service';

/** Spec 4.16. */
@Module({ controllers: [OrganisationStatsController], providers: [OrganisationStatsService] })
export class StatsModule {}
