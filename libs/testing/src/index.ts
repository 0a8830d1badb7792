export * from './rabbitmq/rabbitmq-vhost';
export * from './s3/s3-server';
export * from './network/tcp-fault-proxy';
export * from './postgres';
export * from './processes';
export * from './stack';
export * from './openapi/contract-answers';
export * from './fixtures/render-target';
