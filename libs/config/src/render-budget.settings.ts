import { Limits } from '@docrender/contracts';
import { ConfigOf, setting } from './setting';

/**
 * The render budget (the contract's 60 s), one setting for every service that renders or waits for a render: the
 * gateway (sync render), the job worker (async jobs), the workspace (live preview) and the render service, which
 * abandons a document past it; and the one grace past it every sender waits for the reply (RenderServiceClient).
 */
export const renderBudgetSettings = {
  renderBudgetMs: setting.int(
    'RENDER_BUDGET_MS',
    "Render budget per document in milliseconds (the contract's 60 s: RenderTimeout in docs/api.md#errors), counted from when the gateway or the job worker sends the document; past it the render service closes the page and the document gets a RenderTimeout issue (500 RenderTimeout for a stateless render).",
    Limits.renderBudgetMs,
    { min: 1, max: 3_600_000 },
  ),
  replyGraceMs: setting.int(
    'RENDER_REPLY_GRACE_MS',
    "How long past the render budget a sender waits for the render service's reply. Then a sync render reports the document's RenderTimeout itself, an async job treats the render service as unavailable and renders the document again, and a preview answers ExternalServiceError.",
    10_000,
    { min: 0, max: 600_000 },
  ),
};

export type RenderBudgetSettings = ConfigOf<typeof renderBudgetSettings>;
