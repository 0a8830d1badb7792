import { setting } from './setting';

export const gatewaySettings = {
  port: setting.int('PORT', 'HTTP port of the API gateway (and of the one-process mode).', 3000, { min: 1, max: 65535 }),
};
