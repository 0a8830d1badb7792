import { Settings } from './process-settings';
import { renderBudgetSettings } from './render-budget.settings';

describe('Settings.load', () => {
  it('reads each declared spec once from the environment given', () => {
    const settings = Settings.load([renderBudgetSettings, renderBudgetSettings], { RENDER_BUDGET_MS: '30000' });
    expect(settings.get(renderBudgetSettings)).toEqual({ renderBudgetMs: 30_000, replyGraceMs: 10_000 });
  });

  it.each(['RENDER_TIMEOUT_MS', 'RENDER_API_RENDER_BUDGET_MS'])(
    'issue 19 (one render budget): %s, renamed to RENDER_BUDGET_MS, refuses the start instead of being ignored without a word',
    (retired) => {
      expect(() => Settings.load([renderBudgetSettings], { [retired]: '30000' })).toThrow(
        `${retired}: no longer read; set RENDER_BUDGET_MS instead (one render budget for every service)`,
      );
    },
  );

  it.each(['RENDER_API_REPLY_GRACE_MS', 'JOBS_RENDER_REPLY_GRACE_MS'])(
    'issue 37 (one render-service client): %s, replaced by RENDER_REPLY_GRACE_MS, refuses the start',
    (retired) => {
      expect(() => Settings.load([renderBudgetSettings], { [retired]: '5000' })).toThrow(
        `${retired}: no longer read; set RENDER_REPLY_GRACE_MS instead (one reply grace for every sender)`,
      );
    },
  );
});
