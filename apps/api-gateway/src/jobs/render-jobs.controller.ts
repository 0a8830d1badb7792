import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { EnqueueRequestDto, ErrorCode, RateLimitCategory, type JobAcceptedDto, type JobStatusDto } from '@docrender/contracts';
import { ApiBearerKey, ApiKeyGuard, CurrentCaller, type Caller } from '../auth';
import { RateLimited, RateLimitGuard } from '../rate-limit';
import { resourceId, templateIdOf, versionNumberOf } from '../listing/path-params';
import { RenderQueryDto } from '../render/render-request.dto';
import { ApiTemplateIdParam, ApiVersionParam } from '../render/render.openapi';
import { RenderJobEnqueueService } from './render-job-enqueue.service';
import { RenderJobStatusService } from './render-job-status.service';
import { ApiEnqueueEndpoint, ApiJobStatusEndpoint } from './render-jobs.openapi';

/** Spec 4.5 (enqueue an async batch) and 4.6 (job status); both count against the Render rate limit. */
@ApiTags('render jobs')
@ApiBearerKey()
@RateLimited(RateLimitCategory.Render)
@UseGuards(ApiKeyGuard, RateLimitGuard)
@Controller('v1/render')
export class RenderJobsController {
  constructor(
    private readonly enqueuer: RenderJobEnqueueService,
    private readonly statuses: RenderJobStatusService,
  ) {}

  @Post(':templateId/async')
  @HttpCode(202)
  @ApiOperation({ summary: 'Enqueue an asynchronous batch of the latest published version', operationId: 'enqueueLatestVersion' })
  @ApiTemplateIdParam()
  @ApiEnqueueEndpoint()
  enqueueLatest(
    @CurrentCaller() caller: Caller,
    @Param('templateId') templateId: string,
    @Query() query: RenderQueryDto,
    @Body() body: EnqueueRequestDto,
  ): Promise<JobAcceptedDto> {
    return this.enqueuer.enqueue({ caller, templateId: templateIdOf(templateId), versionNumber: null, persist: query.persist ?? true, language: query.language ?? null, body });
  }

  @Post(':templateId/versions/:version/async')
  @HttpCode(202)
  @ApiOperation({ summary: 'Enqueue an asynchronous batch of a specific version', operationId: 'enqueueVersion' })
  @ApiTemplateIdParam()
  @ApiVersionParam()
  @ApiEnqueueEndpoint()
  enqueueVersion(
    @CurrentCaller() caller: Caller,
    @Param('templateId') templateId: string,
    @Param('version') version: string,
    @Query() query: RenderQueryDto,
    @Body() body: EnqueueRequestDto,
  ): Promise<JobAcceptedDto> {
    const template = templateIdOf(templateId);
    return this.enqueuer.enqueue({ caller, templateId: template, versionNumber: versionNumberOf(version, template), persist: query.persist ?? true, language: query.language ?? null, body });
  }

  @Get('jobs/:jobId')
  @ApiOperation({ summary: 'Job status', operationId: 'getJobStatus' })
  @ApiJobStatusEndpoint()
  status(@CurrentCaller() caller: Caller, @Param('jobId') jobId: string): Promise<JobStatusDto> {
    return this.statuses.status(caller.organisationId, resourceId(jobId, ErrorCode.EntityNotFound, 'job'));
  }
}
