import { Limits } from '@docrender/contracts';
import { ConfigOf, setting } from './setting';

/**
 * The render budget (the contract's 60 s), one setting for every service that renders or waits for a render: the
 * gateway (sync render), the job worker (async jobs) and the render service, which abandons a document past it.
 */
export const renderBudgetSettings = {
  renderBudgetMs: setting.int(
    'RENDER_BUDGET_MS',
    "Render budget per document in milliseconds (the contract's 60 s: RenderTimeout in docs/api.md#errors), counted from when the gateway or the job worker sends the document; past it the render service closes the page and the document gets a RenderTimeout issue (500 RenderTimeout for a stateless render).",
    Limits.renderBudgetMs,
    { min: 1, max: 3_600_000 },
  ),
};

export type RenderBudgetSettings = ConfigOf<typeof renderBudgetSettings>;
