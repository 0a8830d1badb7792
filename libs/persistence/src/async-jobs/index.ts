export * from './outbox-sql.store';
export * from './run-job-outbox';
export * from './webhook-delivery.repository';
