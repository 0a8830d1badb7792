// Puppeteer configuration for this repository.
// The render service prefers a system Chromium (Debian `chromium`, or PUPPETEER_EXECUTABLE_PATH);
// when one is present, `npm ci` must not try to download a browser (the download needs the internet).
const fs = require('node:fs');

const systemBrowsers = [
  process.env.PUPPETEER_EXECUTABLE_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
].filter(Boolean);

const hasSystemBrowser = systemBrowsers.some((p) => fs.existsSync(p));

module.exports = {
  skipDownload: hasSystemBrowser || process.env.PUPPETEER_SKIP_DOWNLOAD === 'true',
};
