import { buildVersion } from './build-version';
import { checkReadiness } from './readiness';

describe('4.17 readiness', () => {
  it('is ready when every dependency answers', async () => {
    await expect(checkReadiness([{ name: 'database', check: async () => undefined }])).resolves.toEqual({ ready: true });
  });

  it('names every unreachable dependency in the reason', async () => {
    const result = await checkReadiness([
      { name: 'database', check: async () => { throw new Error('connection refused'); } },
      { name: 'blob storage', check: async () => undefined },
      { name: 'message bus', check: () => new Promise<void>(() => undefined) },
    ], 50);
    expect(result).toEqual({ ready: false, reason: 'database unreachable: connection refused; message bus unreachable: no answer within 50 ms' });
  });
});

describe('4.17 version', () => {
  it('reports BUILD_VERSION when set', () => {
    expect(buildVersion({ BUILD_VERSION: '1.2.3+abc' })).toBe('1.2.3+abc');
  });
  it('falls back to the package version', () => {
    expect(buildVersion({})).toMatch(/^\d+\.\d+\.\d+/);
  });
  it('is unknown when nothing tells', () => {
    expect(buildVersion({}, '/')).toBe('unknown');
  });
});
