import { ChromiumNotFoundError, downloadedChromePath, findChromium } from './chromium-executable';
import { PUPPETEER_MADE_FOR } from './chromium-version';

const executables = (...paths: string[]) => (path: string) => paths.includes(path);
const noDownload = () => Promise.resolve('/cache/puppeteer/chrome/chrome');

describe('Chromium discovery', () => {
  it('uses PUPPETEER_EXECUTABLE_PATH when it is set and executable', async () => {
    await expect(
      findChromium({ configuredPath: '/opt/chrome', systemPaths: ['/usr/bin/chromium'], downloadedPath: noDownload, isExecutable: executables('/opt/chrome', '/usr/bin/chromium') }),
    ).resolves.toBe('/opt/chrome');
  });

  it('refuses a PUPPETEER_EXECUTABLE_PATH that is not executable instead of silently using another browser', async () => {
    await expect(
      findChromium({ configuredPath: '/opt/missing', systemPaths: ['/usr/bin/chromium'], downloadedPath: noDownload, isExecutable: executables('/usr/bin/chromium') }),
    ).rejects.toThrow(/PUPPETEER_EXECUTABLE_PATH=\/opt\/missing/);
  });

  it('prefers the first system Chromium, then the browser puppeteer downloaded', async () => {
    const search = { configuredPath: undefined, systemPaths: ['/usr/bin/chromium', '/usr/bin/google-chrome'], downloadedPath: noDownload };
    await expect(findChromium({ ...search, isExecutable: executables('/usr/bin/google-chrome', '/cache/puppeteer/chrome/chrome') })).resolves.toBe('/usr/bin/google-chrome');
    await expect(findChromium({ ...search, isExecutable: executables('/cache/puppeteer/chrome/chrome') })).resolves.toBe('/cache/puppeteer/chrome/chrome');
  });

  it('fails with one error that says how to install a browser', async () => {
    const find = () =>
      findChromium({
        configuredPath: undefined,
        systemPaths: ['/usr/bin/chromium'],
        downloadedPath: () => Promise.reject(new Error('no cache')),
        isExecutable: executables(),
      });
    await expect(find()).rejects.toThrow(ChromiumNotFoundError);
    await expect(find()).rejects.toThrow(/apt-get install -y chromium.*npx @puppeteer\/browsers install chrome@\d+\.\d+\.\d+\.\d+.*PUPPETEER_EXECUTABLE_PATH/);
  });

  it('the downloaded browser is the Chrome this puppeteer is made for, where `npx @puppeteer/browsers install` puts it (default ~/.cache/puppeteer)', () => {
    expect(downloadedChromePath('/srv/browsers')).toBe(`/srv/browsers/chrome/linux-${PUPPETEER_MADE_FOR.chrome}/chrome-linux64/chrome`);
    expect(downloadedChromePath()).toMatch(new RegExp(`/\\.cache/puppeteer/chrome/linux-${PUPPETEER_MADE_FOR.chrome.replace(/\./g, '\\.')}/chrome-linux64/chrome$`));
  });
});
