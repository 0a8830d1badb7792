import type { Provider } from '@nestjs/common';
import { renderBudgetSettings, Settings } from '@docrender/config';
import { RenderBudget } from '@docrender/rendering';

/** The one render budget (RENDER_BUDGET_MS, spec 8) for everything the gateway sends to the render service: documents and previews. */
export const renderBudgetProvider: Provider = {
  provide: RenderBudget,
  useFactory: (settings: Settings) => new RenderBudget(settings.get(renderBudgetSettings).renderBudgetMs),
  inject: [Settings],
};
