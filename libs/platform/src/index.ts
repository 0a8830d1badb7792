export * from './meta/readiness';
export * from './meta/build-version';
export * from './meta/meta.controller';
export * from './meta/probes.module';
export * from './infrastructure/infrastructure';
export * from './infrastructure/infrastructure.module';
export * from './infrastructure/platform.settings';
export * from './bootstrap';
