/** The document used up its render budget (spec 8); the page it held was closed. */
export class RenderTimeoutError extends Error {
  constructor(readonly budgetMs: number) {
    super(`the document exceeded its render budget of ${budgetMs} ms`);
    this.name = 'RenderTimeoutError';
  }
}
