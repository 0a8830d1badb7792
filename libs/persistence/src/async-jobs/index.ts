export * from './outbox-relay';
export * from './run-job-outbox';
export * from './webhook-delivery.repository';
