export * from './message-bus';
export * from './messaging-logger';
export * from './queue-bounds';
export * from './message-bus.factory';
export { AmqpMessageBus } from './amqp/amqp-message-bus';
export { AmqpTopology } from './amqp/amqp-topology';
export { InProcessMessageBus } from './in-process/in-process-message-bus';
