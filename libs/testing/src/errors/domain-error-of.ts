import { DomainError } from '@docrender/contracts';

/**
 * The DomainError that `call` throws, for a test to read its code and message. Any other error is rethrown, and a
 * call that returns fails the test.
 */
export function domainErrorOf(call: () => unknown): DomainError {
  try {
    call();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError, but the call returned');
}
