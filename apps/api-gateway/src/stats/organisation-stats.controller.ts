import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OrganisationStatsDto } from '@docrender/contracts';
import { ApiBearerKey } from '../auth/api-auth.decorator';
import { ApiKeyGuard } from '../auth/api-key.guard';
import type { Caller } from '../auth/caller';
import { CurrentCaller } from '../auth/current-caller.decorator';
import { OrganisationStatsService } from './organisation-stats.service';

/** Spec 4.16. No rate-limit policy applies (spec part 8), so only ApiKeyGuard guards it. */
@ApiTags('organisation')
@Controller('v1/organisation')
export class OrganisationStatsController {
  constructor(private readonly stats: OrganisationStatsService) {}

  @Get('stats')
  @UseGuards(ApiKeyGuard)
  @ApiBearerKey()
  @ApiOperation({ summary: 'Organisation usage and credit', description: 'The organisation comes from the key. Not rate-limited.' })
  @ApiOkResponse({ type: OrganisationStatsDto })
  get(@CurrentCaller() caller: Caller): Promise<OrganisationStatsDto> {
    return this.stats.stats(caller);
  }
}
