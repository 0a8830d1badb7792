import { readFileSync } from 'node:fs';
import path from 'node:path';
import { allSettings, withSettingsTable } from './settings-catalog';

describe('configuration table', () => {
  it('the README lists every setting with its default (run `npm run docs:settings` after adding one)', () => {
    const readme = readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8');
    expect(withSettingsTable(readme)).toBe(readme);
  });

  it('every variable carries an area prefix or is one of the well-known names', () => {
    const wellKnown = new Set(['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'PUPPETEER_EXECUTABLE_PATH', 'BLOB_DIR', 'API_KEY_PEPPER', 'SEED_DEMO', 'DEMO_KEYS_FILE', 'PUBLIC_BASE_URL', 'VIEW_URL_SECRET', 'ALLOW_DEVELOPMENT_SECRETS']);
    const prefixed = /^(OTEL_EXPORTER_OTLP|DB|EMBEDDED_PG|AMQP|S3|RENDER|WEBHOOK|RATE_LIMIT|EGRESS|JOBS?|JOB_WORKER|WEBHOOK_DISPATCHER|RENDER_SERVICE|HTTP|RETENTION|PREVIEW|VIEW_URL|GATEWAY|WORKSPACE)_/;
    const offenders = allSettings().map((s) => s.env).filter((env) => !wellKnown.has(env) && !prefixed.test(env));
    expect(offenders).toEqual([]);
  });

  it('no text cites a section number of the contract, which a reader of the repository cannot open (issue 22): words or docs/ links instead', () => {
    expect(allSettings().filter((s) => /\bspec(?: part)? \d/i.test(s.description)).map((s) => s.env)).toEqual([]);
  });

  it('every setting has a description and a documented default', () => {
    for (const s of allSettings()) {
      expect(s.description.length).toBeGreaterThan(10);
      expect(s.defaultText.length).toBeGreaterThan(0);
    }
  });
});
