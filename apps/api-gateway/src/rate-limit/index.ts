export * from './api-rate-limit.decorator';
export * from './rate-limit.guard';
export * from './overlapped-permit';
export * from './rate-limiter';
export * from './rate-limit.policy';
export * from './rate-limit.store';
export * from './rate-limit.module';
