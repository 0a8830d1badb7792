export * from './app.module';
export * from './job-worker.definition';
export * from './job-worker.settings';
