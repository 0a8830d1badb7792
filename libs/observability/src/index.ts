export * from './log-context';
export * from './logger';
export * from './metrics';
