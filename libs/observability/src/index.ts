export * from './log-context';
export * from './logger';
export * from './metrics';
export * from './tracing';
