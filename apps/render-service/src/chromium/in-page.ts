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

/**
 * Loads every font face the document declares (the DSL declares only the ones its text uses); one that fails prints
 * in the fallback. Nothing laid out before a print asks for them, so they are loaded before measuring and printing.
 */
export async function loadEveryFont(devTools: CDPSession): Promise<void> {
  await devTools.send('Runtime.evaluate', { expression: LOAD_EVERY_FONT, awaitPromise: true });
}

const LOAD_EVERY_FONT = 'Promise.all(Array.from(document.fonts, (face) => face.load().catch(() => undefined))).then(() => undefined)';
