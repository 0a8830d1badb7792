export * from './app-process';
export * from './chromium-crashes';
