import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CLIENT_VERSION } from './version';

describe('package version', () => {
  it('the User-Agent version is the package.json version', () => {
    const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../package.json'), 'utf8')) as { version: string };
    expect(CLIENT_VERSION).toBe(manifest.version);
  });
});
