export * from './caller';
export * from './api-key.guard';
export * from './current-caller.decorator';
export * from './api-auth.decorator';
export * from './auth.module';
