import { MessageName } from '@docrender/contracts';
import { AmqpTopology } from './amqp-topology';

describe('AmqpTopology', () => {
  const topology = new AmqpTopology({
    queuePrefix: 'p.',
    deliveryLimit: 5,
    jobQueueMaxLength: 10_000,
    webhookQueueMaxLength: 100_000,
    deadLetterMaxLength: 50_000,
  });

  it('names one queue per message name, its dead-letter queue and its delay queues, all under the prefix', () => {
    expect(topology.workQueue(MessageName.RenderDocument)).toBe('p.render.document');
    expect(topology.deadLetterQueue(MessageName.RunJob)).toBe('p.job.run.dead-letter');
    expect(topology.delayQueue(MessageName.DeliverWebhook, 2000)).toBe('p.webhook.deliver.delay.2000');
    expect(topology.deadLetterExchange).toBe('p.docrender.dead-letter');
  });

  it('work queues are quorum queues with a delivery limit and dead-lettering by message name', () => {
    expect(topology.workQueueArguments(MessageName.RenderDocument)).toEqual({
      'x-queue-type': 'quorum',
      'x-delivery-limit': 5,
      'x-dead-letter-exchange': 'p.docrender.dead-letter',
      'x-dead-letter-routing-key': 'render.document',
    });
  });

  it('4.5: job.run is bounded and refuses publishing when full', () => {
    expect(topology.workQueueArguments(MessageName.RunJob)).toMatchObject({ 'x-max-length': 10_000, 'x-overflow': 'reject-publish' });
  });

  it('6.3.4: webhook.deliver is bounded and drops its oldest message when full', () => {
    expect(topology.workQueueArguments(MessageName.DeliverWebhook)).toMatchObject({ 'x-max-length': 100_000, 'x-overflow': 'drop-head' });
  });

  it('the render queues are unbounded', () => {
    expect(topology.workQueueArguments(MessageName.RenderPreview)).not.toHaveProperty('x-max-length');
  });

  it('6.3.2: a delay queue holds messages for its TTL, then dead-letters them into the work queue', () => {
    expect(topology.delayQueueArguments(MessageName.DeliverWebhook, 4000)).toEqual({
      'x-queue-type': 'quorum',
      'x-message-ttl': 4000,
      'x-dead-letter-exchange': '',
      'x-dead-letter-routing-key': 'p.webhook.deliver',
    });
  });

  it('dead-letter queues are bounded, dropping their oldest', () => {
    expect(topology.deadLetterQueueArguments()).toEqual({
      'x-queue-type': 'quorum',
      'x-max-length': 50_000,
      'x-overflow': 'drop-head',
      'x-delivery-limit': 5,
    });
  });
});
