// Shows that each module-boundary rule of eslint.config.mjs rejects a file breaking it (issue 19): writes one probe
// file per rule into the project it constrains, lints the probes with the workspace's ESLint configuration, deletes
// them, and fails unless every probe meant to be rejected is rejected by its rule (@nx/enforce-module-boundaries, or
// @typescript-eslint/no-restricted-imports for the raw connection's entry and the DSL's compiler on the gateway) and
// every probe meant to pass (a test file importing libs/testing, pg or the raw connection, persistence importing
// typeorm, the gateway importing the DSL's checks) passes.
// Run: `node tools/lint-probes.mjs` (docs/testing.md).
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const testingImport = "import { createTestDatabase } from '@docrender/testing';\nexport const probe = createTestDatabase;\n";
// The way apps used to reach the raw connection: a type-only import counts as an import too.
const typeormImport = "import type { DataSource } from 'typeorm';\nexport type Probe = DataSource;\n";
const pgImport = "import { Client } from 'pg';\nexport const probe = Client;\n";
// The raw connection's narrow entry of libs/persistence.
const internalImport = "import { connectDataSource } from '@docrender/persistence/internal';\nexport const probe = connectDataSource;\n";
const restrictedImports = '@typescript-eslint/no-restricted-imports';
// The DSL with its compiler (echarts, bwip-js, layout).
const dslImport = "import { compileDocument } from '@docrender/template-dsl';\nexport const probe = compileDocument;\n";

/** [file, content, rejected?, rule (default @nx/enforce-module-boundaries)] */
const probes = [
  ['apps/job-worker/src/lint-probe.ts', testingImport, true],
  // The DSL's test entry (the attack corpus) is for tests only, like libs/testing.
  ['apps/job-worker/src/lint-probe-dsl-testing.ts', "import { notOkDocumentNames } from '@docrender/template-dsl/testing';\nexport const probe = notOkDocumentNames;\n", true, restrictedImports],
  ['libs/platform/src/lint-probe.ts', testingImport, true],
  ['libs/persistence/src/lint-probe.ts', testingImport, true],
  ['libs/messaging/src/lint-probe.ts', testingImport, true],
  ['libs/client/src/lint-probe.ts', testingImport, true],
  // Pure libraries stay free of NestJS and the infrastructure clients.
  ['libs/template-dsl/src/lint-probe.ts', "import { Injectable } from '@nestjs/common';\nexport const probe = Injectable;\n", true],
  // The render use case reaches PostgreSQL only through the repositories' ports, never a driver.
  ['libs/rendering/src/lint-probe.ts', "import { DataSource } from 'typeorm';\nexport const probe = DataSource;\n", true],
  // The use case owns its ports: it never imports persistence, not even a type; persistence adapts to the use case's types.
  ['libs/rendering/src/lint-probe-persistence.ts', "import type { RenderJobRecord } from '@docrender/persistence';\nexport type Probe = RenderJobRecord;\n", true],
  ['libs/persistence/src/lint-probe-rendering.ts', "import type { RenderableTemplate } from '@docrender/rendering';\nexport type Probe = RenderableTemplate;\n", false],
  // An app never imports another app (only the one-process launcher does).
  ['apps/job-worker/src/lint-probe-app.ts', "import { apiGatewayService } from '@docrender/api-gateway';\nexport const probe = apiGatewayService;\n", true],
  // Apps reach PostgreSQL through @docrender/persistence's repositories and transaction helper, never its clients.
  ['apps/job-worker/src/lint-probe-typeorm.ts', typeormImport, true],
  ['apps/api-gateway/src/lint-probe-pg.ts', pgImport, true],
  ['apps/standalone/src/lint-probe-typeorm.ts', typeormImport, true],
  // Tests excepted: a test file of an app may use the test helpers, and raw SQL to set up a scenario.
  ['apps/job-worker/src/lint-probe.spec.ts', testingImport, false],
  ['apps/webhook-dispatcher/src/lint-probe.int-spec.ts', pgImport, false],
  // The library that owns the database still uses its clients.
  ['libs/persistence/src/lint-probe-typeorm.ts', typeormImport, false],
  // The raw TypeORM connection is not exported to apps or the platform: only libs/testing and tests take it.
  ['apps/api-gateway/src/lint-probe-internal.ts', internalImport, true, restrictedImports],
  ['apps/standalone/src/lint-probe-internal.ts', internalImport, true, restrictedImports],
  ['libs/platform/src/lint-probe-internal.ts', internalImport, true, restrictedImports],
  ['libs/testing/src/lint-probe-internal.ts', internalImport, false, restrictedImports],
  ['apps/job-worker/src/lint-probe-internal.int-spec.ts', internalImport, false, restrictedImports],
  // The gateway's event loop and the render use case import the DSL's checks, not its compiler; the job worker may.
  ['apps/api-gateway/src/lint-probe-dsl.ts', dslImport, true, restrictedImports],
  ['libs/rendering/src/lint-probe-dsl.ts', dslImport, true, restrictedImports],
  ['apps/api-gateway/src/lint-probe-internal-dsl.ts', internalImport, true, restrictedImports],
  ['apps/api-gateway/src/lint-probe-checks.ts', "import { nestingTooDeepIssue } from '@docrender/template-dsl/checks';\nexport const probe = nestingTooDeepIssue;\n", false, restrictedImports],
  ['apps/job-worker/src/lint-probe-dsl.ts', dslImport, false, restrictedImports],
];

execFileSync('npx', ['nx', 'show', 'projects'], { cwd: root, stdio: 'ignore' });
let failures = 0;
try {
  for (const [file, content] of probes) writeFileSync(path.join(root, file), content);
  const results = await new ESLint({ cwd: root }).lintFiles(probes.map(([file]) => file));
  for (const [file, , rejected, rule = '@nx/enforce-module-boundaries'] of probes) {
    const result = results.find((r) => r.filePath === path.join(root, file));
    const messages = (result?.messages ?? []).filter((m) => m.ruleId === rule);
    const ok = rejected ? messages.length > 0 : messages.length === 0;
    if (!ok) failures++;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${file}: ${rejected ? 'rejected' : 'accepted'} expected; ${messages.map((m) => m.message).join(' | ') || `no ${rule} error`}`);
  }
} finally {
  for (const [file] of probes) rmSync(path.join(root, file), { force: true });
}
process.exit(failures === 0 ? 0 : 1);
