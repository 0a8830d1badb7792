import { Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ErrorCode, RateLimitCategory, type JobAcceptedDto, type JobStatusDto } from '@docrender/contracts';
import { ApiBearerKey, ApiKeyGuard, CurrentCaller, type Caller } from '../auth';
import { RateLimited, RateLimitGuard } from '../rate-limit';
import { resourceId, templateIdOf, versionNumberOf } from '../listing/path-params';
import { RenderBodyParser } from '../request-body/render-body.parser';
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
    private readonly bodies: RenderBodyParser,
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
    @Req() req: Request,
  ): Promise<JobAcceptedDto> {
    return this.enqueue(caller, templateIdOf(templateId), null, query, req);
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
    @Req() req: Request,
  ): Promise<JobAcceptedDto> {
    const template = templateIdOf(templateId);
    return this.enqueue(caller, template, versionNumberOf(version, template), query, req);
  }

  /** The body is read here, after the key and the rate limit (the guards), through the same reader as a sync render. */
  private async enqueue(caller: Caller, templateId: string, versionNumber: number | null, query: RenderQueryDto, req: Request): Promise<JobAcceptedDto> {
    const body = await this.bodies.enqueueBody(req);
    return this.enqueuer.enqueue({ caller, templateId, versionNumber, persist: query.persist ?? true, language: query.language ?? null, body });
  }

  @Get('jobs/:jobId')
  @ApiOperation({ summary: 'Job status', operationId: 'getJobStatus' })
  @ApiJobStatusEndpoint()
  status(@CurrentCaller() caller: Caller, @Param('jobId') jobId: string): Promise<JobStatusDto> {
    return this.statuses.status(caller.organisationId, resourceId(jobId, ErrorCode.EntityNotFound, 'job'));
  }
}
