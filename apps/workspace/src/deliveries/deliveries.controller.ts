import { ConflictException, Controller, Get, HttpCode, Inject, NotFoundException, Param, ParseUUIDPipe, Post, Query, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { MessageName, type DeliverWebhookCommand } from '@docrender/contracts';
import { MESSAGE_BUS, type MessageBus } from '@docrender/messaging';
import type { Logger } from '@docrender/observability';
import { Transactions, WebhookDeliveryRepository, type WebhookAttemptRecord, type WebhookDeliveryRecord, type WorkspaceSession } from '@docrender/persistence';
import { LOGGER } from '@docrender/platform';
import { retryDelaySeconds } from '@docrender/webhooks';
import { CurrentSession, Requires, WorkspaceAuthGuard } from '../auth/workspace-auth.guard';

const MAX_TAKE = 100;

const iso = (d: Date | null): string | null => d?.toISOString() ?? null;

/**
 * When the next attempt of a pending delivery is due: after a failed attempt, its nominal backoff (spec 6.3: 2, 4, 8,
 * 16 s; an operator's WEBHOOK_BACKOFF_SCALE is not known here); null when no retry follows or one is being made.
 */
function nextAttemptAt(delivery: WebhookDeliveryRecord, attempts: WebhookAttemptRecord[]): string | null {
  if (delivery.state !== 'pending') return null;
  const last = attempts.at(-1);
  if (last === undefined || last.finishedAt === null || last.outcome !== 'failed') return null;
  const delay = retryDelaySeconds(last.attempt);
  return delay === null ? null : new Date(last.finishedAt.getTime() + delay * 1000).toISOString();
}

const deliveryJson = (d: WebhookDeliveryRecord) => ({
  deliveryId: d.deliveryId,
  jobId: d.jobId,
  event: d.event,
  state: d.state,
  attempts: d.attempts,
  lastHttpStatus: d.lastHttpStatus,
  lastError: d.lastError,
  createdAt: d.createdAt.toISOString(),
  updatedAt: d.updatedAt.toISOString(),
});

const attemptJson = (a: WebhookAttemptRecord) => ({
  attempt: a.attempt,
  startedAt: a.startedAt.toISOString(),
  finishedAt: iso(a.finishedAt),
  outcome: a.outcome,
  httpStatus: a.httpStatus,
  error: a.error,
  durationMs: a.durationMs,
});

/**
 * The organisation's webhook delivery log (issue 35 item 5; spec 6.3's recorded attempts): every callback of its async
 * jobs, newest first, with its attempts (answers' status codes, timings) and next attempt. Owners may send a failed
 * (abandoned or dropped) callback again: one more attempt under the same delivery id, made and signed by the webhook
 * dispatcher like any other (decision 0048). Everyone signed in reads; another organisation's ids answer 404.
 */
@ApiTags('webhook deliveries')
@UseGuards(WorkspaceAuthGuard)
@Controller('workspace/api/webhook-deliveries')
export class DeliveriesController {
  constructor(
    private readonly transactions: Transactions<'webhookDeliveries'>,
    private readonly deliveries: WebhookDeliveryRepository,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Get()
  @ApiOperation({ summary: "The organisation's callback deliveries, newest first", operationId: 'listWebhookDeliveries' })
  @ApiQuery({ name: 'skip', required: false })
  @ApiQuery({ name: 'take', required: false })
  async list(@CurrentSession() s: WorkspaceSession, @Query('skip') skip?: string, @Query('take') take?: string) {
    const from = Math.max(0, Number.parseInt(skip ?? '0', 10) || 0);
    const count = Math.min(MAX_TAKE, Math.max(1, Number.parseInt(take ?? '25', 10) || 25));
    const page = await this.deliveries.listByOrganisation(s.user.organisationId, from, count);
    return { items: page.items.map(deliveryJson), total: page.total, skip: from, take: count };
  }

  @Get(':deliveryId')
  @ApiOperation({ summary: 'A delivery with its attempts (answers, timings) and when the next one is due', operationId: 'getWebhookDelivery' })
  async get(@CurrentSession() s: WorkspaceSession, @Param('deliveryId', ParseUUIDPipe) deliveryId: string) {
    const delivery = await this.deliveries.findForOrganisation(s.user.organisationId, deliveryId);
    if (delivery === null) throw new NotFoundException(`delivery ${deliveryId} not found`);
    const attempts = await this.deliveries.listAttempts(deliveryId);
    return { ...deliveryJson(delivery), attemptList: attempts.map(attemptJson), nextAttemptAt: nextAttemptAt(delivery, attempts) };
  }

  @Post(':deliveryId/redeliver')
  @Requires('owner')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send a failed or abandoned callback again: a new attempt under the same delivery id', operationId: 'redeliverWebhook' })
  async redeliver(@CurrentSession() s: WorkspaceSession, @Param('deliveryId', ParseUUIDPipe) deliveryId: string) {
    const outcome = await this.transactions.run((r) => r.webhookDeliveries.reopenForRedelivery(s.user.organisationId, deliveryId));
    switch (outcome.kind) {
      case 'not-found':
        throw new NotFoundException(`delivery ${deliveryId} not found`);
      case 'not-settled-as-failed':
        throw new ConflictException(`only a failed or abandoned delivery is sent again; this one is ${outcome.state}`);
      case 'no-copy':
        throw new ConflictException('the callback is no longer kept (JOBS_OUTBOX_KEEP_HOURS): it cannot be sent again');
      case 'reopened':
        break;
    }
    const command = outcome.command as DeliverWebhookCommand;
    try {
      // Published at once; should this fail, the job worker's callback relay publishes the unpublished outbox message.
      await this.bus.publish(MessageName.DeliverWebhook, command, { messageId: `${deliveryId}.${outcome.attempt}` });
      await this.deliveries.markRedeliveryPublished(deliveryId);
    } catch (error) {
      this.logger.warn('redelivery left to the callback relay', { deliveryId, errorMessage: error instanceof Error ? error.message : String(error) });
    }
    this.logger.info('callback redelivery requested', { deliveryId, jobId: command.jobId, attempt: outcome.attempt, by: s.user.email });
    const delivery = await this.deliveries.findForOrganisation(s.user.organisationId, deliveryId);
    return { ...deliveryJson(delivery as WebhookDeliveryRecord), attempt: outcome.attempt };
  }
}
