export * from './async-stack';
export * from './callback-receiver';
export * from './dispatcher-stand';
export * from './render-stand-in';
export * from './test-infrastructure';
export * from './test-tenant';
export * from './wait-for';
