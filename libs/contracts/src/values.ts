// The contracts' run-time values that import nothing from NestJS, class-validator or class-transformer (plain enums,
// constants and functions; the DTO classes with their decorators stay in the *.dto.ts modules). The client SDK imports
// its values from here (`@docrender/contracts/values`), and its package build (libs/client/scripts/build-package.mjs)
// compiles this entry and the modules it requires into the package, which must load without the server's dependencies.
export * from './limits';
export * from './environment';
export * from './errors/error-code';
export * from './issues/render-issue';
export * from './paging/listing';
export * from './documents/document-type';
export * from './render/render-status';
export * from './jobs/job-state';
export * from './callbacks/webhook-event';
