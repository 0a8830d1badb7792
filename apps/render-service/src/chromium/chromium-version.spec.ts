import { checkChromiumVersion, PUPPETEER_MADE_FOR } from './chromium-version';

const madeFor = { puppeteer: '25.16.0', chrome: '156.0.8078.47' };

describe('the Chromium version checked at start against the Chrome puppeteer is made for (issue 36 item 4, issue 37 item 5)', () => {
  it('matches when the majors are equal, naming both versions', () => {
    const result = checkChromiumVersion('HeadlessChrome/156.0.8078.108', madeFor);
    expect(result).toMatchObject({ verdict: 'matches', chromium: '156.0.8078.108', puppeteer: '25.16.0', madeFor: '156.0.8078.47' });
    expect(result.message).toContain('Chromium 156.0.8078.108 with puppeteer 25.16.0 (made for Chrome 156.0.8078.47)');
  });

  it('refuses an older Chromium, saying what to install', () => {
    const result = checkChromiumVersion('HeadlessChrome/148.0.7778.97', madeFor);
    expect(result.verdict).toBe('older');
    expect(result.message).toContain('Chromium 148.0.7778.97 with puppeteer 25.16.0');
    expect(result.message).toContain('install Chromium 156 or later');
  });

  it('starts on a newer Chromium but names the untested pairing and the puppeteer to move to', () => {
    const result = checkChromiumVersion('Chrome/158.0.1.2', madeFor);
    expect(result.verdict).toBe('newer');
    expect(result.message).toContain('move puppeteer to the release made for Chrome 158');
  });

  it('refuses a product string without a version', () => {
    expect(checkChromiumVersion('HeadlessChrome', madeFor).verdict).toBe('older');
  });

  it('reads the installed puppeteer and the Chrome it is made for', () => {
    expect(PUPPETEER_MADE_FOR.puppeteer).toMatch(/^\d+\.\d+\.\d+$/);
    expect(PUPPETEER_MADE_FOR.chrome).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  });
});
