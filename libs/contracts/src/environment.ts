/** Spec part 1: the API key prefix alone decides the environment. */
export enum Environment {
  Test = 'test',
  Production = 'production',
}

export const API_KEY_PREFIX: Record<Environment, string> = {
  [Environment.Test]: 'service_test_',
  [Environment.Production]: 'service_prod_',
};

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** The environment a key selects, or null when the key has neither prefix. */
export function environmentOfKey(key: string): Environment | null {
  if (key.startsWith(API_KEY_PREFIX[Environment.Test])) return Environment.Test;
  if (key.startsWith(API_KEY_PREFIX[Environment.Production])) return Environment.Production;
  return null;
}
