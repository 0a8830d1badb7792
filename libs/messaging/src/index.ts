export * from './message-bus';
export { DependencyOutageError } from '@docrender/contracts';
export * from './messaging-logger';
export * from './queue-bounds';
export * from './dependency-outage';
export * from './message-bus.factory';
export { AmqpMessageBus } from './amqp/amqp-message-bus';
export { AmqpTopology } from './amqp/amqp-topology';
export { InProcessMessageBus } from './in-process/in-process-message-bus';
