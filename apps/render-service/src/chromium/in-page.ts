import type { CDPSession } from 'puppeteer-core';

/** Runs an expression in the page through DevTools, whatever the document's JavaScript setting; `what` names the work in the error when it throws. */
export async function evaluateInPage(devTools: CDPSession, expression: string, what: string): Promise<void> {
  await run(devTools, expression, what, false);
}

/** As evaluateInPage, and returns the expression's value (JSON-serializable). */
export async function valueInPage<T>(devTools: CDPSession, expression: string, what: string): Promise<T> {
  return (await run(devTools, expression, what, true)) as T;
}

async function run(devTools: CDPSession, expression: string, what: string, returnByValue: boolean): Promise<unknown> {
  const { result, exceptionDetails } = await devTools.send('Runtime.evaluate', { expression, returnByValue });
  if (exceptionDetails) throw new Error(`${what} failed: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
  return result?.value;
}
