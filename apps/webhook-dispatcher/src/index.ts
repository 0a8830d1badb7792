export * from './app.module';
export * from './webhook-dispatcher.definition';
export * from './webhook-dispatcher.settings';
