import { ROTATION_GRACE_MS, signingSecretsAt } from './signing-secrets';

describe('signingSecretsAt', () => {
  const rotatedAt = new Date('2026-11-20T12:00:00.000Z');
  const stored = { active: 'whsec_new', previous: 'whsec_old', rotatedAt };

  it('6.4: the previous secret keeps signing during the 24 hours after rotation', () => {
    expect(signingSecretsAt(stored, new Date(rotatedAt.getTime() + ROTATION_GRACE_MS - 1))).toEqual({
      active: 'whsec_new',
      previous: 'whsec_old',
    });
  });

  it('6.4: from 24 hours after rotation only the active secret signs', () => {
    expect(ROTATION_GRACE_MS).toBe(24 * 60 * 60 * 1000);
    expect(signingSecretsAt(stored, new Date(rotatedAt.getTime() + ROTATION_GRACE_MS))).toEqual({ active: 'whsec_new' });
  });

  it('without a previous secret only the active secret signs', () => {
    expect(signingSecretsAt({ active: 'whsec_new', previous: null, rotatedAt: null }, rotatedAt)).toEqual({ active: 'whsec_new' });
  });
});
