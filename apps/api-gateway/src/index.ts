export * from './app.module';
export * from './api-gateway.definition';
