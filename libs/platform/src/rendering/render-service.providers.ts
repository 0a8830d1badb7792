import type { Provider } from '@nestjs/common';
import { renderBudgetSettings, Settings } from '@docrender/config';
import { MESSAGE_BUS, type MessageBus } from '@docrender/messaging';
import { RenderBudget, RenderServiceClient } from '@docrender/rendering';

/**
 * The one render-service client of a process (libs/rendering): the render budget (RENDER_BUDGET_MS, spec 8) and the
 * reply grace past it (RENDER_REPLY_GRACE_MS) for everything the process sends to the render service.
 */
export function renderServiceClient(bus: MessageBus, settings: Settings): RenderServiceClient {
  const { renderBudgetMs, replyGraceMs } = settings.get(renderBudgetSettings);
  return new RenderServiceClient(bus, new RenderBudget(renderBudgetMs), replyGraceMs);
}

/** The same, for an app wired through Nest modules: RenderServiceClient and its RenderBudget, injectable by class. */
export const renderServiceProviders: Provider[] = [
  { provide: RenderServiceClient, useFactory: renderServiceClient, inject: [MESSAGE_BUS, Settings] },
  { provide: RenderBudget, useFactory: (client: RenderServiceClient) => client.budget, inject: [RenderServiceClient] },
];
