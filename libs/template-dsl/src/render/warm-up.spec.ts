/**
 * Decision 0023 (compile threads), warm-up: a compile thread does its first document's work before it serves, and
 * the gateway compiles the template validator at start. Each case loads the modules afresh (jest.isolateModules),
 * as a new thread does.
 */
describe('warming up a thread for templates', () => {
  type Fresh = {
    Ajv: typeof import('ajv').default;
    warmUp: () => void;
    validateTemplate: typeof import('../schema/validate-template').validateTemplate;
    compileTemplateValidator: () => void;
  };

  async function freshModules(): Promise<Fresh> {
    let loaded: Fresh | undefined;
    await jest.isolateModulesAsync(async () => {
      loaded = {
        Ajv: (await import('ajv')).default,
        warmUp: (await import('./warm-up')).warmUp,
        ...(await import('../schema/validate-template')),
      };
    });
    if (loaded === undefined) throw new Error('the modules did not load');
    return loaded;
  }

  const template: unknown = { dsl: 1, body: [{ type: 'text', id: 'hello', text: 'Hello {{ name }}' }] };

  it('warmUp compiles its sample document without an issue (it throws on any)', async () => {
    const { warmUp } = await freshModules();
    expect(() => warmUp()).not.toThrow();
  });

  it.each([
    ['warmUp (a compile thread)', (fresh: Fresh) => fresh.warmUp()],
    ['compileTemplateValidator (the gateway at start)', (fresh: Fresh) => fresh.compileTemplateValidator()],
  ])('%s leaves the template validator compiled: the first template validated afterwards compiles no schema', async (_, warm) => {
    const fresh = await freshModules();
    const { Ajv, validateTemplate } = fresh;
    warm(fresh);
    const compile = jest.spyOn(Ajv.prototype, 'compile');
    try {
      expect(validateTemplate(template).ok).toBe(true);
      expect(compile).not.toHaveBeenCalled();
    } finally {
      compile.mockRestore();
    }
  });

  it('without it, the first template validated on a thread compiles the validator (what the warm-up takes off the first document)', async () => {
    const { Ajv, validateTemplate } = await freshModules();
    const compile = jest.spyOn(Ajv.prototype, 'compile');
    try {
      expect(validateTemplate(template).ok).toBe(true);
      expect(compile).toHaveBeenCalledTimes(1);
    } finally {
      compile.mockRestore();
    }
  });
});
