// One jest run, three kinds of test (see docs/testing.md):
//   unit: *.spec.ts        — beside the code, fakes of ports only
//   int:  *.int-spec.ts    — real PostgreSQL, RabbitMQ, S3 server, Chromium
//   e2e:  *.e2e-spec.ts    — the apps as separate processes over HTTP and AMQP
//   serial: *.serial-spec.ts — tests that restart RabbitMQ; `npm test` runs them alone, last (tools/run-tests.mjs)
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias}$`, `<rootDir>/${target}`]),
);

// How TypeScript is compiled: the same options as the build (tools/build.mjs) and TypeScript worker modules
// (libs/platform/src/workers/module-worker.ts).
const transform = { '^.+\\.ts$': ['@swc/jest', require('./tools/swc-options.json')] };

// intl-messageformat, its @formatjs parts, NestJS 12 and puppeteer 25 (with chromium-bidi) ship ES modules only: Node
// loads them with require(), jest needs them compiled to CommonJS like our own files.
const ESM_ONLY_PACKAGES = ['intl-messageformat', '@formatjs', '@nestjs', 'puppeteer', 'puppeteer-core', '@puppeteer', 'chromium-bidi'];

const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { ...transform, [`node_modules/(?:${ESM_ONLY_PACKAGES.join('|')})/.+\\.js$`]: transform['^.+\\.ts$'] },
  transformIgnorePatterns: [`/node_modules/(?!(?:${ESM_ONLY_PACKAGES.join('|')})/)`],
  moduleNameMapper,
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools', '<rootDir>/deploy'],
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
};

module.exports = {
  maxWorkers: 2,
  // A global option (jest ignores it per project): integration tests start servers and Chromium.
  testTimeout: 60_000,
  reporters: ['default', '<rootDir>/tools/jest/summary-reporter.js'],
  projects: [
    { ...common, displayName: 'unit', testMatch: ['**/*.spec.ts'] },
    { ...common, displayName: 'int', testMatch: ['**/*.int-spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['**/*.e2e-spec.ts'] },
    // Tests that stop and start the machine's RabbitMQ: run alone, after everything else (tools/run-tests.mjs).
    { ...common, displayName: 'serial', testMatch: ['**/*.serial-spec.ts'] },
  ],
};
