export * from './rabbitmq/rabbitmq-vhost';
export * from './rabbitmq/broker-lock';
export * from './s3/s3-server';
export * from './postgres';
export * from './processes';
export * from './stack';
