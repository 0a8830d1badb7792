/**
 * The error of class `type` that `work` throws, for a test to check its fields. Any other error is thrown on; `work`
 * returning fails the test.
 */
export function thrownBy<E extends Error>(type: abstract new (...args: never[]) => E, work: () => unknown): E {
  try {
    work();
  } catch (error) {
    if (error instanceof type) return error;
    throw error;
  }
  throw new Error(`expected a ${type.name}, but nothing was thrown`);
}
