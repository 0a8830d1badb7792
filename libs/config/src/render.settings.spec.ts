import { ConfigError, loadSettings } from './setting';
import { renderBudgetSettings } from './render-budget.settings';
import { defaultRenderBrowsers, defaultRenderPagesPerBrowser, renderSettings } from './render.settings';

describe('render settings', () => {
  it('sizes the pool from the core count: one browser per 4 cores with at least 2 pages each', () => {
    expect([1, 2, 4, 8, 16].map((cores) => [defaultRenderBrowsers(cores), defaultRenderPagesPerBrowser(cores)])).toEqual([
      [1, 2],
      [1, 2],
      [1, 4],
      [2, 4],
      [4, 4],
    ]);
  });

  it('8: the render budget, one setting for every service, defaults to 60 s and can be lowered for tests', () => {
    expect(loadSettings(renderBudgetSettings, {}).renderBudgetMs).toBe(60_000);
    expect(loadSettings(renderBudgetSettings, { RENDER_BUDGET_MS: '1500' }).renderBudgetMs).toBe(1500);
  });

  it('names the variable of a bad value', () => {
    expect(() => loadSettings(renderSettings, { RENDER_PAGES_PER_BROWSER: '0' })).toThrow(ConfigError);
    expect(() => loadSettings(renderSettings, { RENDER_PAGES_PER_BROWSER: '0' })).toThrow(/^RENDER_PAGES_PER_BROWSER: /);
  });
});
