export * from './app.module';
export * from './webhook-dispatcher.service';
export * from './webhook-dispatcher.settings';
