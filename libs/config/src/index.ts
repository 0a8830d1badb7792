export * from './setting';
