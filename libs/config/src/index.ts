export * from './setting';
export * from './database.settings';
export * from './messaging.settings';
export * from './storage.settings';
export * from './egress.settings';
export * from './rate-limit.settings';
export * from './view-url.settings';
export * from './render.settings';
