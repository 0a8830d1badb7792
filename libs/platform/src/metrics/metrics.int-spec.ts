import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import request from 'supertest';
import { loadSettings, messagingSettings } from '@docrender/config';
import { MessageName } from '@docrender/contracts';
import { InProcessMessageBus } from '@docrender/messaging';
import { createLogger } from '@docrender/observability';
import { ProbesModule } from '../meta/probes.module';

describe('Prometheus /metrics on every app', () => {
  it('serves the process metrics and the queue depths read from the bus at scrape time', async () => {
    const bus = new InProcessMessageBus(loadSettings(messagingSettings, {}), createLogger('test', 'error'));
    @Module({ imports: [ProbesModule.register({ checks: () => [], bus })] })
    class MetricsTestModule {}
    const app = await NestFactory.create(MetricsTestModule, { logger: false });
    await app.init();
    try {
      await bus.publish(MessageName.RunJob, { jobId: 'a' });
      await bus.publish(MessageName.RunJob, { jobId: 'b' });
      const res = await request(app.getHttpServer()).get('/metrics');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.text).toContain('docrender_process_cpu_seconds_total');
      expect(res.text).toMatch(/docrender_queue_depth\{queue="job\.run"\} 2/);
    } finally {
      await app.close();
      await bus.close();
    }
  });
});
