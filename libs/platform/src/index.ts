export * from './meta/readiness';
export * from './meta/build-version';
export * from './meta/meta.controller';
