export * from './app-process';
export * from './chromium-crashes';
export * from './process-tree';
export * from './app-command';
export * from './seeded-service';
