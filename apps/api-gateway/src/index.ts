export * from './app.module';
export * from './api-gateway.service';
export * from './gateway.settings';
