import type { DynamicModule, INestApplication, LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, refuseDevelopmentSecrets } from '@docrender/config';
import { createLogger, Logger } from '@docrender/observability';
import { connectInfrastructure, Infrastructure } from './infrastructure/infrastructure';

/** Nest's framework messages, written as our JSON log lines. */
export class NestLogAdapter implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string): void {
    this.logger.info(String(message), { context });
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

export type ServiceDefinition = {
  /** e.g. `api-gateway`; names the logs and the PostgreSQL application_name. */
  name: string;
  /** The app's root module built around the process's infrastructure. */
  module: (infrastructure: Infrastructure, logger: Logger) => DynamicModule;
  /** HTTP port (the gateway's API, or another app's probes and metrics). */
  port: (env: NodeJS.ProcessEnv) => number;
  /** Extra HTTP set-up before listening (the gateway: body limits, OpenAPI, filters). */
  configure?: (app: INestApplication, logger: Logger) => void;
};

/** Creates the Nest application of one app on a given infrastructure (shared by main.ts and the one-process launcher). */
export async function createServiceApp(definition: ServiceDefinition, infrastructure: Infrastructure, logger: Logger): Promise<INestApplication> {
  const app = await NestFactory.create(definition.module(infrastructure, logger), {
    logger: new NestLogAdapter(logger.child({ context: 'nest' })),
    bufferLogs: false,
    bodyParser: definition.configure === undefined,
  });
  definition.configure?.(app, logger);
  return app;
}

/**
 * The whole of an app's main.ts: read settings, connect infrastructure, start the Nest app, stop gracefully on
 * SIGTERM/SIGINT. A bad setting stops start-up with one line naming the variable, and so does a public development
 * secret (VIEW_URL_SECRET, API_KEY_PEPPER) unless ALLOW_DEVELOPMENT_SECRETS=true.
 */
export async function runService(definition: ServiceDefinition): Promise<void> {
  const logger = createLogger(definition.name);
  let infrastructure: Infrastructure | undefined;
  try {
    const port = definition.port(process.env);
    refuseDevelopmentSecrets(process.env);
    infrastructure = await connectInfrastructure({ service: definition.name, logger });
    const app = await createServiceApp(definition, infrastructure, logger);
    await app.listen(port, '0.0.0.0');
    logger.info(`${definition.name} listening`, { port });
    const infra = infrastructure;
    const stop = async (signal: string): Promise<void> => {
      logger.info('shutting down', { signal });
      await app.close();
      await infra.close();
      logger.info('stopped');
      process.exit(0);
    };
    process.once('SIGTERM', (s) => void stop(s));
    process.once('SIGINT', (s) => void stop(s));
  } catch (err) {
    if (err instanceof ConfigError || (err instanceof Error && /^[A-Z][A-Z0-9_]+: /.test(err.message))) {
      process.stderr.write(`${definition.name}: configuration error: ${err.message}\n`);
    } else {
      logger.error('start-up failed', { err });
    }
    await infrastructure?.close().catch(() => undefined);
    process.exit(1);
  }
}
