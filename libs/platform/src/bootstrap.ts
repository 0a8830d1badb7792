import { DynamicModule, Inject, INestApplication, LoggerService, Module, OnApplicationBootstrap } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import { ConfigError, otlpTracesUrl, refuseDevelopmentSecrets, Settings, SettingsSpec, tracingSettings } from '@docrender/config';
import { type ConsumingApp, SUBSCRIPTIONS } from '@docrender/messaging';
import { createLogger, Logger, startTracing } from '@docrender/observability';
import { connectInfrastructure, Connections, hasDatabase, Infrastructure, platformSpecs } from './infrastructure/infrastructure';
import { InfrastructureModule } from './infrastructure/infrastructure.module';
import { platformSettings } from './infrastructure/platform.settings';
import { SubscriptionGate } from './infrastructure/subscription-gate';

/**
 * Nest's start-up narration (each module initialised, each route mapped, the app started): about 90 lines for the
 * four apps of one process, written at debug so that what an operator needs at info (the banner of `npm start`, the
 * apps' own lines) fits on the first screen (issue 37 item 4).
 */
const NEST_START_UP_CONTEXTS: ReadonlySet<string> = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/** Nest's framework messages, written as our JSON log lines; its start-up narration at debug. */
export class NestLogAdapter implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string): void {
    if (context !== undefined && NEST_START_UP_CONTEXTS.has(context)) this.logger.debug(String(message), { context });
    else this.logger.info(String(message), { context });
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error(String(message), { context, stack: trace });
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn(String(message), { context });
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug(String(message), { context });
  }
  verbose(message: unknown, context?: string): void {
    this.logger.debug(String(message), { context });
  }
}

/** A reason the app cannot start that its operator can act on (e.g. no Chromium): written as one line, not a stack. */
export class StartupError extends Error {}

export type ServiceName = 'api-gateway' | 'workspace' | ConsumingApp;

/** What an app's root module is built from: its share of the infrastructure, the process's logger and settings. */
export type ServiceContext<D extends boolean = boolean> = {
  /** The bus and blob store, plus PostgreSQL when the definition asks for the database. */
  infrastructure: D extends true ? Infrastructure : Connections;
  logger: Logger;
  settings: Settings;
};

/**
 * How one app starts, the same for all four: its name, which optional piece of infrastructure it asks for (the
 * database), the settings it reads, its root module and its HTTP port. Used by the app's main.ts (runService) and by
 * the one-process launcher (createServiceApp on shared infrastructure).
 */
export type ServiceDefinition<D extends boolean = boolean> = {
  /** Names the logs, the PostgreSQL application_name and the app in SUBSCRIPTIONS. */
  name: ServiceName;
  /** Whether the app uses PostgreSQL: only then is it connected (and migrated) and its repositories injectable. */
  database: D;
  /** The settings specs the app and its modules read (the platform adds its own: bus, blob store, log level…). */
  settings: readonly SettingsSpec[];
  /** The app's root module. The bootstrap puts the shared InfrastructureModule (bus, blob store, LOGGER…) above it. */
  module(context: ServiceContext<D>): DynamicModule;
  /** HTTP port (the gateway's API, or another app's probes and metrics). */
  port(settings: Settings): number;
  /** Extra HTTP set-up before listening (the gateway: body limits, OpenAPI, filters). */
  configure?(app: INestApplication, logger: Logger): void;
  /** Past this time after SIGTERM/SIGINT the process exits even if closing has not finished (default: no limit). */
  stopWithinMs?(settings: Settings): number;
};

/** Every setting an app reads, with the platform's own: what its process loads once at start. */
export function serviceSettings(definitions: readonly ServiceDefinition[], env: NodeJS.ProcessEnv, extra: readonly SettingsSpec[] = []): Settings {
  const database = definitions.some((definition) => definition.database);
  return Settings.load([...platformSpecs(database), ...definitions.flatMap((definition) => definition.settings), ...extra], env);
}

/** The root of every app: the shared infrastructure module above the app's own root module. */
@Module({})
class ServiceModule implements OnApplicationBootstrap {
  constructor(@Inject(SubscriptionGate) private readonly gate: SubscriptionGate) {}

  static of(appModule: DynamicModule, context: ServiceContext, gate: SubscriptionGate): DynamicModule {
    return {
      module: ServiceModule,
      imports: [InfrastructureModule.forRoot(context.infrastructure, context.logger, context.settings), appModule],
      providers: [{ provide: SubscriptionGate, useValue: gate }],
    };
  }

  /** Runs after every other module's onApplicationBootstrap (the root module's hooks come last): consumers are registered. */
  async onApplicationBootstrap(): Promise<void> {
    await this.gate.open();
  }
}

/**
 * Creates the Nest application of one app on a given infrastructure (shared by runService and the one-process
 * launcher; tests use it too). Initialising it (app.init or app.listen) refuses to start when the app's consumers do
 * not handle exactly the messages it subscribes to (SubscriptionGate); only then do they take messages.
 */
export async function createServiceApp(
  definition: ServiceDefinition,
  infrastructure: Connections | Infrastructure,
  logger: Logger,
  settings: Settings = serviceSettings([definition], process.env),
): Promise<INestApplication> {
  if (definition.database && !hasDatabase(infrastructure)) throw new Error(`${definition.name} asks for the database: its infrastructure has none`);
  const gate = new SubscriptionGate(definition.name, infrastructure.bus);
  const context: ServiceContext = { infrastructure: { ...infrastructure, bus: gate.bus }, logger, settings };
  const app = await NestFactory.create(ServiceModule.of(definition.module(context), context, gate), {
    logger: new NestLogAdapter(logger.child({ context: 'nest' })),
    bufferLogs: false,
    bodyParser: definition.configure === undefined,
    // start-up errors reach the caller (one clear line from runService) instead of Nest's own handler
    abortOnError: false,
  });
  definition.configure?.(app, logger);
  return app;
}

/** An app started on its own by startService. */
export type RunningService = {
  app: INestApplication;
  infrastructure: Connections;
  settings: Settings;
  logger: Logger;
  /** The HTTP port it listens on. */
  port: number;
  /** Closes the app, then its infrastructure, then exports the spans still buffered. */
  stop(): Promise<void>;
};

/**
 * Starts one app on its own, the same way for all four: reads its settings once, refuses a public development secret
 * it reads (VIEW_URL_SECRET, API_KEY_PEPPER) unless ALLOW_DEVELOPMENT_SECRETS=true, connects the infrastructure it
 * asks for (PostgreSQL only when its definition says `database: true`; AMQP_URL required for an app that takes
 * messages), creates the Nest app on it and listens. Tracing starts first when an OTLP endpoint is set (and stops
 * with the service, or when start-up fails). A bad setting throws a ConfigError naming the variable.
 */
export async function startService(definition: ServiceDefinition, env: NodeJS.ProcessEnv, logger?: Logger): Promise<RunningService> {
  const settings = serviceSettings([definition], env);
  refuseDevelopmentSecrets(env, (variable) => settings.reads(variable));
  const log = logger ?? createLogger(definition.name, settings.get(platformSettings).logLevel);
  const port = definition.port(settings);
  const tracing = startTracing(definition.name, otlpTracesUrl(settings.get(tracingSettings)), log);
  // An app that takes messages needs RabbitMQ to do anything and waits for it; the gateway serves reads without it.
  const takesMessages = (Object.values(SUBSCRIPTIONS) as string[]).includes(definition.name);
  const common = { service: definition.name, logger: log, settings, requireBroker: takesMessages, waitForBroker: takesMessages };
  let infrastructure: Connections | undefined;
  let app: INestApplication | undefined;
  try {
    infrastructure = definition.database ? await connectInfrastructure({ ...common, database: true }) : await connectInfrastructure({ ...common, database: false });
    app = await createServiceApp(definition, infrastructure, log, settings);
    await app.listen(port, '0.0.0.0');
  } catch (err) {
    await app?.close().catch(() => undefined);
    await infrastructure?.close().catch(() => undefined);
    await tracing?.shutdown().catch(() => undefined);
    throw err;
  }
  const [running, connected] = [app, infrastructure];
  return {
    app: running,
    infrastructure: connected,
    settings,
    logger: log,
    port: (running.getHttpServer().address() as AddressInfo).port,
    async stop() {
      await running.close();
      await connected.close();
      await tracing?.shutdown();
    },
  };
}

/**
 * The whole of an app's main.ts: startService, then stop gracefully on SIGTERM/SIGINT (within the definition's
 * stopWithinMs, if it has one). Anything that stops start-up ends the process with code 1: a ConfigError or a
 * StartupError (e.g. no Chromium for the render service) as one line on stderr, anything else logged with its stack.
 */
export async function runService(definition: ServiceDefinition, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let service: RunningService;
  try {
    service = await startService(definition, env);
  } catch (err) {
    refuseToStart(definition.name, err);
    return;
  }
  const { logger, settings } = service;
  logger.info(`${definition.name} listening`, { port: service.port, pid: process.pid });
  const stopWithinMs = definition.stopWithinMs?.(settings);
  const stop = async (signal: string): Promise<void> => {
    logger.info('shutting down', { signal });
    if (stopWithinMs !== undefined) {
      setTimeout(() => {
        logger.error('shutdown did not finish in time; exiting', { stopWithinMs });
        process.exit(1);
      }, stopWithinMs).unref();
    }
    await service.stop();
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', (s) => void stop(s));
  process.once('SIGINT', (s) => void stop(s));
}

function refuseToStart(service: string, err: unknown): void {
  if (err instanceof ConfigError) process.stderr.write(`${service}: configuration error: ${err.message}\n`);
  else if (err instanceof StartupError) process.stderr.write(`${service}: ${err.message}\n`);
  else createLogger(service, 'error').error('start-up failed', { err });
  process.exit(1);
}
