export * from './app-process';
