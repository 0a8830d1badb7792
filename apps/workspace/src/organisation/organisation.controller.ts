import { Body, Controller, Delete, Get, HttpCode, NotFoundException, Param, ParseUUIDPipe, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Environment } from '@docrender/contracts';
import { apiKeySummary, ApiKeyRepository, WebhookSecretRepository, type WebhookSecretsRecord, type WorkspaceSession } from '@docrender/persistence';
import { CurrentSession, Requires, WorkspaceAuthGuard } from '../auth/workspace-auth.guard';
import { CreateApiKeyDto } from './organisation.dto';


const secretJson = (s: WebhookSecretsRecord) => ({
  active: s.active,
  previous: s.previous,
  rotatedAt: s.rotatedAt?.toISOString() ?? null,
  previousExpiresAt: s.previousExpiresAt?.toISOString() ?? null,
});

/**
 * Organisation settings (issue 35 item 4; spec 5.2, 5.5, 6.4): API keys (the key shown once, at creation) and the
 * webhook signing secret (shown; rotated with the previous secret signing for 24 hours). Owners only.
 */
@ApiTags('organisation')
@UseGuards(WorkspaceAuthGuard)
@Controller('workspace/api/organisation')
export class OrganisationController {
  constructor(
    private readonly apiKeys: ApiKeyRepository,
    private readonly webhookSecrets: WebhookSecretRepository,
  ) {}

  @Get('api-keys')
  @Requires('owner')
  @ApiOperation({ summary: "The organisation's API keys (never the keys themselves)", operationId: 'listApiKeys' })
  async listKeys(@CurrentSession() s: WorkspaceSession) {
    return { items: (await this.apiKeys.listByOrganisation(s.user.organisationId)).map(apiKeySummary) };
  }

  @Post('api-keys')
  @Requires('owner')
  @ApiOperation({ summary: 'Create an API key: the answer is the only time the key is shown', operationId: 'createApiKey' })
  async createKey(@CurrentSession() s: WorkspaceSession, @Body() body: CreateApiKeyDto) {
    const environment = body.environment === 'production' ? Environment.Production : Environment.Test;
    const label = body.label === null ? null : body.label.trim() || null;
    const { record, plaintextKey } = await this.apiKeys.create(s.user.organisationId, environment, { label });
    return { ...apiKeySummary(record), key: plaintextKey };
  }

  @Delete('api-keys/:apiKeyId')
  @Requires('owner')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke an API key (it answers 401 from then on; revoking a revoked key changes nothing)', operationId: 'revokeApiKey' })
  async revokeKey(@CurrentSession() s: WorkspaceSession, @Param('apiKeyId', ParseUUIDPipe) apiKeyId: string): Promise<void> {
    const key = await this.apiKeys.findById(apiKeyId);
    if (key === null || key.organisationId !== s.user.organisationId) throw new NotFoundException(`API key ${apiKeyId} not found`);
    await this.apiKeys.revoke(apiKeyId);
  }

  @Get('webhook-secret')
  @Requires('owner')
  @ApiOperation({ summary: 'The webhook signing secret (and the previous one while it still signs)', operationId: 'getWebhookSecret' })
  async secret(@CurrentSession() s: WorkspaceSession) {
    return secretJson(await this.webhookSecrets.ensure(s.user.organisationId));
  }

  @Post('webhook-secret/rotate')
  @Requires('owner')
  @HttpCode(200)
  @ApiOperation({ summary: 'Rotate the signing secret: the previous one keeps signing for 24 hours (spec 6.4)', operationId: 'rotateWebhookSecret' })
  async rotate(@CurrentSession() s: WorkspaceSession) {
    return secretJson(await this.webhookSecrets.rotate(s.user.organisationId));
  }
}
