import { Environment, environmentOfKey } from '@docrender/contracts/values';

/** The environment a key selects by its prefix alone (spec part 1), or null for a key with neither prefix. */
export { environmentOfKey };

/** The warning the SDK emits once per process when a production key is used where NODE_ENV is `test`. */
export const PRODUCTION_KEY_IN_TEST_WARNING = 'DOCRENDER_PRODUCTION_KEY_IN_TEST';

export type ClientWarning = { code: string; message: string };

let productionKeyWarned = false;

/**
 * Spec part 1: a production key makes every render real and credit-consuming. When a process that set `NODE_ENV=test`
 * is given one (at construction or by switching keys), `warn` is called — once per process, however many clients and
 * keys follow.
 */
export function warnOnProductionKeyInTest(key: string, env: NodeJS.ProcessEnv, warn: (warning: ClientWarning) => void): void {
  if (productionKeyWarned || env.NODE_ENV !== 'test' || environmentOfKey(key) !== Environment.Production) return;
  productionKeyWarned = true;
  warn({
    code: PRODUCTION_KEY_IN_TEST_WARNING,
    message: 'a production API key (service_prod_…) is in use while NODE_ENV=test: renders are real, unwatermarked and consume page credit',
  });
}

/** The default warning sink: Node's process warnings (printed to stderr unless the process listens for them). */
export function emitProcessWarning(warning: ClientWarning): void {
  process.emitWarning(warning.message, { type: 'DocrenderWarning', code: warning.code });
}
