import { generatePassword, hashPassword, UNKNOWN_USER_PASSWORD_HASH, verifyPassword } from './workspace-password';

describe('workspace passwords (issue 35 item 1: a memory-hard hash)', () => {
  it('stores scrypt with its parameters and a random salt, and verifies only the right password', async () => {
    const password = generatePassword();
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const [a, b] = await Promise.all([hashPassword(password), hashPassword(password)]);
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    await expect(verifyPassword(password, a)).resolves.toBe(true);
    await expect(verifyPassword(`${password}x`, a)).resolves.toBe(false);
  });

  it('refuses a malformed hash and the dummy hash an unknown user is checked against', async () => {
    await expect(verifyPassword('anything', 'plain')).resolves.toBe(false);
    await expect(verifyPassword('anything', UNKNOWN_USER_PASSWORD_HASH)).resolves.toBe(false);
  });
});
