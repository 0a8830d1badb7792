export * from './render-target';
export * from './render-command';
export * from './rendered-document';
export * from './blob-keys';
export * from './deterministic-id';
export * from './map-with-concurrency';
export * from './render-batch';
export * from './undelivered-answers';
