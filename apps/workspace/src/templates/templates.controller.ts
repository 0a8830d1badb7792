import { Body, Controller, Get, Param, ParseIntPipe, ParseUUIDPipe, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { TemplateRecord, TemplateVersionRecord, WorkspaceSession } from '@docrender/persistence';
import { templateJsonSchema } from '@docrender/template-dsl';
import { CurrentSession, Requires, WorkspaceAuthGuard } from '../auth/workspace-auth.guard';
import { ExamplesCatalog } from './examples.catalog';
import { CreateTemplateDto, DraftDto, NewDraftDto } from './template.dto';
import { WorkspaceTemplates } from './templates.service';

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

/** Spec 2.2's fields. */
function templateJson(t: TemplateRecord) {
  return {
    id: t.id,
    name: t.name,
    documentNameTemplate: t.documentNameTemplate,
    projectId: t.projectId,
    projectName: t.projectName,
    latestVersionNumber: t.latestVersionNumber,
    versionCount: t.versionCount,
    updatedAt: t.updatedAt.toISOString(),
    updatedBy: t.updatedBy,
  };
}

/** Spec 2.3's fields (a summary without the texts). */
function versionJson(v: TemplateVersionRecord, full: boolean) {
  return {
    id: v.id,
    templateId: v.templateId,
    versionNumber: v.versionNumber,
    ...(full ? { templateJson: v.templateJson, sampleData: v.sampleData } : {}),
    translations: v.translations,
    documentNameTemplate: v.documentNameTemplate,
    publishedAt: iso(v.publishedAt),
    publishedBy: v.publishedBy,
    updatedAt: v.updatedAt.toISOString(),
  };
}

const MAX_TAKE = 100;

/** Templates and their versions (issue 35 item 2). Reads need any role, writes an editor. */
@ApiTags('templates')
@UseGuards(WorkspaceAuthGuard)
@Controller('workspace/api')
export class TemplatesController {
  constructor(
    private readonly templates: WorkspaceTemplates,
    private readonly examples: ExamplesCatalog,
  ) {}

  @Get('dsl-schema')
  @ApiOperation({ summary: "The template DSL's JSON Schema (docs/template-dsl.schema.json): the editor's completion", operationId: 'getDslSchema' })
  dslSchema() {
    return templateJsonSchema;
  }

  @Get('examples')
  @ApiOperation({ summary: 'The examples a new template can start from', operationId: 'listExamples' })
  listExamples() {
    return { items: this.examples.list() };
  }

  @Get('templates')
  @ApiOperation({ summary: "The organisation's templates, newest change first, optionally searched by name", operationId: 'listTemplates' })
  @ApiQuery({ name: 'search', required: false })
  @ApiQuery({ name: 'skip', required: false })
  @ApiQuery({ name: 'take', required: false })
  async list(@CurrentSession() s: WorkspaceSession, @Query('search') search?: string, @Query('skip') skip?: string, @Query('take') take?: string) {
    const from = Math.max(0, Number.parseInt(skip ?? '0', 10) || 0);
    const count = Math.min(MAX_TAKE, Math.max(1, Number.parseInt(take ?? '50', 10) || 50));
    const page = await this.templates.list(s.user.organisationId, typeof search === 'string' ? search.slice(0, 200) : undefined, from, count);
    return { items: page.items.map(templateJson), total: page.total, skip: from, take: count };
  }

  @Post('templates')
  @Requires('editor')
  @ApiOperation({ summary: 'Create a template (blank or from an example) with a first draft', operationId: 'createTemplate' })
  async create(@CurrentSession() s: WorkspaceSession, @Body() body: CreateTemplateDto) {
    const { template, version } = await this.templates.create(s.user, body.name.trim(), body.example);
    return { template: templateJson(template), version: versionJson(version, true) };
  }

  @Get('templates/:templateId')
  @ApiOperation({ summary: 'A template and the summaries of its versions', operationId: 'getTemplate' })
  async get(@CurrentSession() s: WorkspaceSession, @Param('templateId', ParseUUIDPipe) templateId: string) {
    const { template, versions } = await this.templates.get(s.user.organisationId, templateId);
    return { template: templateJson(template), versions: versions.map((v) => versionJson(v, false)) };
  }

  @Get('templates/:templateId/versions/:versionNumber')
  @ApiOperation({ summary: 'A version with its DSL and sample data', operationId: 'getVersion' })
  async version(@CurrentSession() s: WorkspaceSession, @Param('templateId', ParseUUIDPipe) templateId: string, @Param('versionNumber', ParseIntPipe) versionNumber: number) {
    return versionJson(await this.templates.version(s.user.organisationId, templateId, versionNumber), true);
  }

  @Get('templates/:templateId/compare')
  @ApiOperation({
    summary: 'Two versions of a template side by side (DSL, sample data, translations, document-name template) for the compare page',
    operationId: 'compareVersions',
  })
  @ApiQuery({ name: 'from', required: true, description: 'the version number shown as before' })
  @ApiQuery({ name: 'to', required: true, description: 'the version number shown as after' })
  async compare(
    @CurrentSession() s: WorkspaceSession,
    @Param('templateId', ParseUUIDPipe) templateId: string,
    @Query('from', ParseIntPipe) from: number,
    @Query('to', ParseIntPipe) to: number,
  ) {
    const [before, after] = await Promise.all([this.templates.version(s.user.organisationId, templateId, from), this.templates.version(s.user.organisationId, templateId, to)]);
    return { templateId, from: versionJson(before, true), to: versionJson(after, true) };
  }

  @Put('templates/:templateId/versions/:versionNumber')
  @Requires('editor')
  @ApiOperation({ summary: "Replace a draft's content (422 when the render's checks refuse it, 409 for a published version)", operationId: 'saveDraft' })
  async saveDraft(
    @CurrentSession() s: WorkspaceSession,
    @Param('templateId', ParseUUIDPipe) templateId: string,
    @Param('versionNumber', ParseIntPipe) versionNumber: number,
    @Body() body: DraftDto,
  ) {
    const { templateJson: dsl, sampleData, translations, documentNameTemplate } = body;
    return versionJson(await this.templates.saveDraft(s.user, templateId, versionNumber, { templateJson: dsl, sampleData, translations, documentNameTemplate }), true);
  }

  @Post('templates/:templateId/versions/:versionNumber/publish')
  @Requires('editor')
  @ApiOperation({ summary: 'Publish a draft (publishedAt, publishedBy)', operationId: 'publishVersion' })
  async publish(@CurrentSession() s: WorkspaceSession, @Param('templateId', ParseUUIDPipe) templateId: string, @Param('versionNumber', ParseIntPipe) versionNumber: number) {
    return versionJson(await this.templates.publish(s.user, templateId, versionNumber), true);
  }

  @Post('templates/:templateId/versions')
  @Requires('editor')
  @ApiOperation({ summary: 'Start a new draft from any version', operationId: 'newDraft' })
  async newDraft(@CurrentSession() s: WorkspaceSession, @Param('templateId', ParseUUIDPipe) templateId: string, @Body() body: NewDraftDto) {
    return versionJson(await this.templates.newDraft(s.user, templateId, body.fromVersion), true);
  }
}
