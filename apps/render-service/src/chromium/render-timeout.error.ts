/** The document used up its render budget (spec 8); the page it held was closed. */
export class RenderTimeoutError extends Error {
  constructor(readonly budgetMs: number) {
    super(`the document exceeded its render budget of ${budgetMs} ms`);
    this.name = 'RenderTimeoutError';
  }
}

/**
 * The document cannot be printed in what is left of its render budget, as estimated before its real print (issue 32
 * item 3): it fails then rather than when the budget runs out. `reason` says what the estimate was made from.
 */
export class RenderBudgetEstimateError extends RenderTimeoutError {
  constructor(
    budgetMs: number,
    readonly reason: string,
  ) {
    super(budgetMs);
    this.message = `the document cannot be printed within its render budget of ${budgetMs} ms: ${reason}`;
    this.name = 'RenderBudgetEstimateError';
  }
}
