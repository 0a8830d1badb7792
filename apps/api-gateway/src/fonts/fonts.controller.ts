import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { FontFamilyDto, RateLimitCategory, type ListQuery, type PagedResult } from '@docrender/contracts';
import { ApiBearerKey } from '../auth/api-auth.decorator';
import { ApiKeyGuard } from '../auth/api-key.guard';
import type { Caller } from '../auth/caller';
import { CurrentCaller } from '../auth/current-caller.decorator';
import { ApiListing, ListQueryParams } from '../listing/list-query.decorator';
import { pagedResultOf } from '../listing/paged-result.dto';
import { RateLimited } from '../rate-limit/api-rate-limit.decorator';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { FontsService } from './fonts.service';

const FontFamilyPageDto = pagedResultOf(FontFamilyDto, 'FontFamilyPageDto');

/** Spec 4.18. */
@ApiTags('fonts')
@ApiExtraModels(FontFamilyPageDto)
@Controller('v1/fonts')
export class FontsController {
  constructor(private readonly fonts: FontsService) {}

  @Get()
  @UseGuards(ApiKeyGuard, RateLimitGuard)
  @RateLimited(RateLimitCategory.Read)
  @ApiBearerKey()
  @ApiOperation({
    summary: 'List font families',
    description:
      'Families a template may use as fontFamily: built-in (bundled, always available) and the organisation’s custom families, each with the weight/style variants it has files for. A custom family without a file for a requested variant gives an UnresolvedFont issue.',
  })
  @ApiListing('fonts')
  @ApiOkResponse({ type: FontFamilyPageDto })
  list(@CurrentCaller() caller: Caller, @ListQueryParams('fonts') query: ListQuery): Promise<PagedResult<FontFamilyDto>> {
    return this.fonts.list(caller, query);
  }
}
