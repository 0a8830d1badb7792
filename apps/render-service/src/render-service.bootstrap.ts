import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import { ConfigError, loadSettings, messagingSettings, storageSettings } from '@docrender/config';
import { createMessageBus, MessageBus } from '@docrender/messaging';
import { createLogger } from '@docrender/observability';
import { NestLogAdapter, ServiceDefinition } from '@docrender/platform';
import { createBlobStore } from '@docrender/storage';
import { ChromiumNotFoundError } from './chromium/chromium-executable';
import { RenderServiceModule } from './render-service.module';
import { loadRenderServiceSettings } from './render-service.settings';

export const RENDER_SERVICE_NAME = 'render-service';

/**
 * How the one-process launcher builds the render service on its shared infrastructure (bus and blob store; the
 * render service never uses the database).
 */
export const renderServiceDefinition: ServiceDefinition = {
  name: RENDER_SERVICE_NAME,
  module: (infrastructure, logger) => RenderServiceModule.register({ bus: infrastructure.bus, blobStore: infrastructure.blobStore, logger }),
  port: (env) => loadRenderServiceSettings(env).port,
};

/**
 * The render service as its own process (main.ts): connects RabbitMQ and the blob store only (no database), starts
 * the Chromium pool, serves the probes on RENDER_SERVICE_PORT, and stops gracefully on SIGTERM/SIGINT: no new work,
 * the renders in hand finish (RENDER_SHUTDOWN_GRACE_MS), browsers closed, unfinished messages back on the queue.
 * A bad setting or a missing Chromium stops start-up with one line saying what to do.
 */
export async function runRenderService(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const logger = createLogger(RENDER_SERVICE_NAME);
  let bus: MessageBus | undefined;
  let app: INestApplication | undefined;
  try {
    const settings = loadRenderServiceSettings(env);
    const messaging = loadSettings(messagingSettings, env);
    if (messaging.amqpUrl === undefined) {
      throw new ConfigError('AMQP_URL', `must be set for ${RENDER_SERVICE_NAME} on its own (only the one-process mode, npm start, uses the in-process bus)`);
    }
    const blobStore = await createBlobStore(loadSettings(storageSettings, env));
    bus = await createMessageBus(messaging, logger);
    app = await NestFactory.create(RenderServiceModule.register({ bus, blobStore, logger, settings }), {
      logger: new NestLogAdapter(logger.child({ context: 'nest' })),
      // start-up errors reach the catch below (one clear line) instead of Nest's own handler
      abortOnError: false,
    });
    await app.listen(settings.port, '0.0.0.0');
    const port = (app.getHttpServer().address() as AddressInfo).port;
    logger.info(`${RENDER_SERVICE_NAME} listening`, { port, pid: process.pid });
  } catch (err) {
    if (err instanceof ConfigError || err instanceof ChromiumNotFoundError) {
      process.stderr.write(`${RENDER_SERVICE_NAME}: ${err instanceof ConfigError ? 'configuration error: ' : ''}${err.message}\n`);
    } else {
      logger.error('start-up failed', { err });
    }
    await app?.close().catch(() => undefined);
    await bus?.close().catch(() => undefined);
    process.exit(1);
  }

  const running = app;
  const connectedBus = bus;
  const hardStopMs = loadRenderServiceSettings(env).shutdownGraceMs + 20_000;
  const stop = async (signal: string): Promise<void> => {
    logger.info('shutting down', { signal });
    setTimeout(() => {
      logger.error('shutdown did not finish in time; exiting', { hardStopMs });
      process.exit(1);
    }, hardStopMs).unref();
    await running.close();
    await connectedBus.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', (signal) => void stop(signal));
  process.once('SIGINT', (signal) => void stop(signal));
}
