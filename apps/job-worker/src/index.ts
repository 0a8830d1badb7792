export * from './app.module';
export * from './job-worker.service';
export * from './job-worker.settings';
