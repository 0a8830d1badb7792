/**
 * The browser (or the page's renderer process) died or stopped answering while a render was on it.
 * The pool retries such a render once on a healthy browser; callers see it only when the retry crashed too.
 */
export class BrowserCrashedError extends Error {
  constructor(reason: string) {
    super(`Chromium crashed during the render: ${reason}`);
    this.name = 'BrowserCrashedError';
  }
}

/** The pool was closed (shutdown) before or while the render ran. */
export class BrowserPoolClosedError extends Error {
  constructor() {
    super('the browser pool is closed');
    this.name = 'BrowserPoolClosedError';
  }
}
