import { StartupError } from '@docrender/platform';
import type { Logger } from '@docrender/observability';
import { PUPPETEER_REVISIONS } from 'puppeteer-core/lib/puppeteer/revisions.js';
import puppeteerCorePackage from 'puppeteer-core/package.json';

/** A puppeteer version and the Chrome version it is made for. */
export type PuppeteerPairing = { puppeteer: string; chrome: string };

/** The installed puppeteer and the Chrome it is made for. */
export const PUPPETEER_MADE_FOR: PuppeteerPairing = { puppeteer: puppeteerCorePackage.version, chrome: PUPPETEER_REVISIONS.chrome };

export type ChromiumVersionVerdict = { verdict: 'matches' | 'newer' | 'older'; chromium: string; puppeteer: string; madeFor: string; message: string };

const major = (version: string): number => Number(version.split('.')[0]);

/**
 * Checks the browser the pool started (its `Browser.getVersion` product, e.g. `HeadlessChrome/156.0.8078.108`) against
 * the Chrome puppeteer is made for. Puppeteer drives the major it is made for and later ones (the DevTools protocol
 * only grows); an older major lacks protocol the printer uses, so the service refuses to start. A newer major is an
 * untested pairing: the service starts and says so, naming both versions (Debian's Chromium moves with security
 * updates, puppeteer with its releases).
 */
export function checkChromiumVersion(product: string, madeFor: PuppeteerPairing = PUPPETEER_MADE_FOR): ChromiumVersionVerdict {
  const chromium = /(\d+\.\d+\.\d+\.\d+)/.exec(product)?.[1] ?? product;
  const pair = { chromium, puppeteer: madeFor.puppeteer, madeFor: madeFor.chrome };
  const names = `Chromium ${chromium} with puppeteer ${madeFor.puppeteer} (made for Chrome ${madeFor.chrome})`;
  if (!(major(chromium) >= 0)) {
    return { verdict: 'older', ...pair, message: `cannot read the Chromium version from ${JSON.stringify(product)}; puppeteer ${madeFor.puppeteer} is made for Chrome ${madeFor.chrome}` };
  }
  if (major(chromium) < major(madeFor.chrome)) {
    return { verdict: 'older', ...pair, message: `${names}: this Chromium is older than puppeteer supports; install Chromium ${major(madeFor.chrome)} or later, or a puppeteer made for ${major(chromium)}` };
  }
  if (major(chromium) > major(madeFor.chrome)) {
    return { verdict: 'newer', ...pair, message: `${names}: a newer Chromium than puppeteer is made for; move puppeteer to the release made for Chrome ${major(chromium)}` };
  }
  return { verdict: 'matches', ...pair, message: `${names}` };
}

export class UnsupportedChromiumError extends StartupError {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedChromiumError';
  }
}

/** Logs the pairing (info when it matches, warn when Chromium is newer) or refuses to start on an older Chromium. */
export function assertChromiumSupported(product: string, logger: Logger): void {
  const result = checkChromiumVersion(product);
  const fields = { chromium: result.chromium, puppeteer: result.puppeteer, puppeteerChrome: result.madeFor };
  if (result.verdict === 'older') throw new UnsupportedChromiumError(`Chromium version check: ${result.message}`);
  if (result.verdict === 'newer') logger.warn(`Chromium version check: ${result.message}`, fields);
  else logger.info(`Chromium version check: ${result.message}`, fields);
}
