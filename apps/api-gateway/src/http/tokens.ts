export const GATEWAY_LOGGER = Symbol('GatewayLogger');
