import { accessSync, constants, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { Browser, computeExecutablePath } from '@puppeteer/browsers';
import { StartupError } from '@docrender/platform';
import { PUPPETEER_MADE_FOR } from './chromium-version';

/** Where a system Chromium or Chrome is usually installed, in the order they are tried. */
export const SYSTEM_CHROMIUM_PATHS: readonly string[] = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

const INSTALL_HINT =
  'Install one: `apt-get install -y chromium` (Debian/Ubuntu), or ' +
  `\`npx @puppeteer/browsers install chrome@${PUPPETEER_MADE_FOR.chrome} --path ~/.cache/puppeteer\`, ` +
  'or set PUPPETEER_EXECUTABLE_PATH to a Chromium/Chrome binary.';

export class ChromiumNotFoundError extends StartupError {
  constructor(detail: string) {
    super(`No Chromium found for the render service: ${detail}. ${INSTALL_HINT}`);
    this.name = 'ChromiumNotFoundError';
  }
}

export type ChromiumSearch = {
  /** PUPPETEER_EXECUTABLE_PATH; when set it must work, nothing else is tried. */
  configuredPath: string | undefined;
  systemPaths: readonly string[];
  /** Where a Chrome for Testing downloaded for this puppeteer would be (it may not exist). */
  downloadedPath: () => Promise<string>;
  isExecutable?: (path: string) => boolean;
};

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Chromium discovery: PUPPETEER_EXECUTABLE_PATH, else a system Chromium/Chrome, else the browser puppeteer
 * downloaded. Throws one ChromiumNotFoundError that says how to install a browser.
 */
export async function findChromium(search: ChromiumSearch): Promise<string> {
  const isExecutable = search.isExecutable ?? isExecutableFile;
  if (search.configuredPath !== undefined) {
    if (isExecutable(search.configuredPath)) return search.configuredPath;
    throw new ChromiumNotFoundError(`PUPPETEER_EXECUTABLE_PATH=${search.configuredPath} is not an executable file`);
  }
  const system = search.systemPaths.find(isExecutable);
  if (system !== undefined) return system;
  let downloaded: string | undefined;
  try {
    downloaded = await search.downloadedPath();
  } catch {
    downloaded = undefined;
  }
  if (downloaded !== undefined && isExecutable(downloaded)) return downloaded;
  throw new ChromiumNotFoundError(
    `none of ${search.systemPaths.join(', ')} exists and no Chrome was downloaded for puppeteer${downloaded ? ` at ${downloaded}` : ''}`,
  );
}

/**
 * Where `npx @puppeteer/browsers install chrome@<the Chrome this puppeteer is made for> --path <cacheDir>` puts it
 * (default: puppeteer's cache folder, ~/.cache/puppeteer).
 */
export function downloadedChromePath(cacheDir = path.join(homedir(), '.cache', 'puppeteer')): string {
  return computeExecutablePath({ browser: Browser.CHROME, buildId: PUPPETEER_MADE_FOR.chrome, cacheDir });
}

/** findChromium with this machine's file system and the download location of the Chrome this puppeteer is made for. */
export function locateChromium(configuredPath: string | undefined): Promise<string> {
  return findChromium({ configuredPath, systemPaths: SYSTEM_CHROMIUM_PATHS, downloadedPath: async () => downloadedChromePath() });
}
