import { IssueSeverity, RenderIssueType } from '@docrender/contracts';
import { scanJsonBody } from '../request-body/json-body.scanner';
import { bindValidateBody, DOCUMENTS_MEMBER } from '../request-body/render-body.binder';
import { RenderBudget, type RenderTarget } from '@docrender/rendering';
import { countEventLoopTurns, notOkDocument, renderTargetFixture } from '@docrender/testing';
import { egressSettings, loadSettings, renderApiSettings } from '@docrender/config';
import { guardedFetch, type EgressPolicy } from '@docrender/egress';
import { shareValidationEgressPolicy, validateDocuments } from './render-validation';
import { RenderValidationService } from './render-validation.service';

const target = (template: unknown, customFonts: RenderTarget['customFonts'] = []): RenderTarget => renderTargetFixture({ template, customFonts });

const body = (documents: unknown[] | string) => {
  const raw = Buffer.from(typeof documents === 'string' ? documents : JSON.stringify({ documents }));
  return bindValidateBody(raw, scanJsonBody(raw, [DOCUMENTS_MEMBER]));
};

const INVOICE = {
  body: [
    { type: 'text', id: 'title', text: 'Invoice {{ number }}', style: { fontFamily: 'House Sans' } },
    { type: 'text', id: 'customer', text: '{{ customer.name }}' },
  ],
};

/** The documented defaults: https only, no private addresses (EGRESS_ALLOW_HTTP, EGRESS_ALLOW_PRIVATE). */
const POLICY: EgressPolicy = loadSettings(egressSettings, {});

describe('validateDocuments (spec 4.4)', () => {
  const service = { validate: (t: RenderTarget, b: ReturnType<typeof body>) => validateDocuments(t, b, POLICY) };

  it('4.4: an empty list when every document is clean', () => {
    const fonts = [{ family: 'House Sans', weight: 400, style: 'normal' as const, blobKey: 'k', format: 'woff2' }];
    expect(service.validate(target(INVOICE, fonts), body([{ number: 1, customer: { name: 'A' } }]))).toEqual([]);
  });

  it('4.4: flat issues, each with its documentIndex; an issue of the template itself is batch-wide (documentIndex null)', () => {
    const issues = service.validate(target(INVOICE), body([{ number: 1, customer: { name: 'A' } }, { number: 2 }, { customer: { name: 'C' } }]));
    expect(issues.map((i) => [i.documentIndex, i.type, i.elementId])).toEqual([
      [null, RenderIssueType.UnresolvedFont, 'title'],
      [1, RenderIssueType.MissingBinding, 'customer'],
      [2, RenderIssueType.MissingBinding, 'title'],
    ]);
  });

  it('4.4: a data issue every document shares stays per document', () => {
    const issues = service.validate(target({ body: [{ type: 'text', id: 'title', text: '{{ number }}' }] }), body([{}, {}]));
    expect(issues.map((i) => [i.documentIndex, i.type])).toEqual([
      [0, RenderIssueType.MissingBinding],
      [1, RenderIssueType.MissingBinding],
    ]);
  });

  it('8: a document nested deeper than 32 levels is DangerousContent, found without parsing it', () => {
    const deep = `{"documents":[{"number":1,"customer":{"name":"A"}},{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}]}`;
    const issues = service.validate(target({ body: [{ type: 'text', id: 'title', text: 'x' }] }), body(deep));
    expect(issues).toEqual([
      expect.objectContaining({ type: RenderIssueType.DangerousContent, severity: 'Error', documentIndex: 1, description: expect.stringContaining('100001 levels deep') }),
    ]);
  });

  it('7.3: script injection in the data is DangerousContent for that document', () => {
    const issues = service.validate(target({ body: [{ type: 'text', id: 'title', text: '{{ name }}' }] }), body([{ name: 'Ann' }, { name: '<script>alert(1)</script>' }]));
    expect(issues.map((i) => [i.documentIndex, i.type])).toEqual([[1, RenderIssueType.DangerousContent]]);
  });

  it.each(['png-20000x20000', 'page-1mm', 'spacer-1000000mm', 'chart-label-1mb', 'markdown-lines-400kb'])(
    'issue 31 item 2: validate reports the document cap a production render blocks on (not-ok/%s)',
    (name) => {
      const attack = notOkDocument(name);
      const issues = service.validate(target(attack.template), body([attack.data]));
      for (const issue of attack.expect) {
        expect(issues).toContainEqual(expect.objectContaining({ type: issue.type, elementId: issue.elementId, description: expect.stringContaining(issue.description) }));
      }
    },
  );

  it('4.4: a stored template that no longer validates is one batch-wide SchemaInvalid issue', () => {
    const issues = service.validate(target({ body: [{ type: 'nonsense', id: 'x' }] }), body([{}, {}]));
    expect(issues).toEqual([expect.objectContaining({ type: RenderIssueType.SchemaInvalid, severity: 'Error', documentIndex: null })]);
  });
});

describe('4.4 / issue 31 item 4: validate reports the image URLs a production render would refuse without asking the network', () => {
  const LOGO = { body: [{ type: 'image', id: 'logo', source: '{{ logo }}' }] };
  /** The issue the render service gives such an image (image-resolver: guardedFetch's refusal as the fetch error). */
  const refused = (url: string, origin: string, detail: string) => ({
    type: RenderIssueType.UnresolvedImage,
    elementId: 'logo',
    description: `The image cannot be shown: ${url} could not be loaded (Egress to ${origin} refused (address-not-allowed): ${detail}).`,
  });

  it.each([
    ['https://169.254.169.254/latest/meta-data/logo.png', 'https://169.254.169.254', '169.254.169.254 is a metadata address (never allowed)'],
    ['https://127.0.0.1/logo.png', 'https://127.0.0.1', '127.0.0.1 is a loopback address'],
    ['https://10.1.2.3/logo.png', 'https://10.1.2.3', '10.1.2.3 is a private address'],
    ['https://2130706433/logo.png', 'https://127.0.0.1', '127.0.0.1 is a loopback address'],
    ['https://[::1]/logo.png', 'https://[::1]', '::1 is a loopback address'],
    ['https://printer.localhost/logo.png', 'https://printer.localhost', 'printer.localhost is a loopback address'],
  ])('%s: UnresolvedImage naming the element, as the render gives it', (url, origin, detail) => {
    const issues = validateDocuments(target(LOGO), body([{ logo: url }]), POLICY);
    expect(issues).toEqual([expect.objectContaining({ ...refused(url, origin, detail), documentIndex: 0, severity: 'Warning' })]);
  });

  it("the refusal is the render's own: the render service's image fetch (guardedFetch) refuses each URL with the same text", async () => {
    const urls = ['https://169.254.169.254/latest/meta-data/logo.png', 'https://127.0.0.1/logo.png', 'https://printer.localhost/logo.png', 'https://10.1.2.3/logo.png'];
    for (const url of urls) {
      const [issue] = validateDocuments(target(LOGO), body([{ logo: url }]), POLICY);
      const fetched = await guardedFetch(url, { policy: POLICY, timeoutMs: 1000, maxBytes: 1024 }).then(
        () => 'fetched',
        (error: Error) => error.message,
      );
      expect(issue.description).toBe(`The image cannot be shown: ${url} could not be loaded (${fetched}).`);
    }
  });

  it('a public https URL, an asset and a host name (which needs DNS) are not decided: no issue', () => {
    const documents = body([{ logo: 'https://93.184.216.34/logo.png' }, { logo: 'asset:logo.png' }, { logo: 'https://images.example.com/logo.png' }]);
    expect(validateDocuments(target(LOGO), documents, POLICY)).toEqual([]);
  });

  it('under EGRESS_ALLOW_PRIVATE private and loopback addresses pass; a metadata address never does', () => {
    const documents = body([{ logo: 'https://10.1.2.3/logo.png' }, { logo: 'https://169.254.169.254/logo.png' }]);
    const issues = validateDocuments(target(LOGO), documents, { ...POLICY, allowPrivate: true });
    expect(issues.map((i) => [i.documentIndex, i.type, i.elementId])).toEqual([[1, RenderIssueType.UnresolvedImage, 'logo']]);
  });

  it('http:// is reported unless EGRESS_ALLOW_HTTP, as the render service decides it', () => {
    const documents = body([{ logo: 'http://93.184.216.34/logo.png' }]);
    expect(validateDocuments(target(LOGO), documents, POLICY).map((i) => i.type)).toEqual([RenderIssueType.UnresolvedImage]);
    expect(validateDocuments(target(LOGO), documents, { ...POLICY, allowHttp: true })).toEqual([]);
  });

  it('a literal URL in the template itself is one batch-wide issue', () => {
    const template = { body: [{ type: 'image', id: 'logo', source: 'https://192.168.0.10/logo.png' }] };
    const issues = validateDocuments(target(template), body([{}, {}]), POLICY);
    expect(issues).toEqual([expect.objectContaining({ ...refused('https://192.168.0.10/logo.png', 'https://192.168.0.10', '192.168.0.10 is a private address'), documentIndex: null })]);
  });
});

describe('RenderValidationService', () => {
  // What RenderModule does at start, before a validation worker exists.
  shareValidationEgressPolicy(POLICY);
  const service = new RenderValidationService({ ...loadSettings(renderApiSettings, {}), validationThreads: 1 }, new RenderBudget(60_000));
  afterAll(async () => {
    await service.onModuleDestroy();
  });
  const manyRows = (rows: number) => body([{ number: 1, customer: { name: 'A' }, rows: Array.from({ length: rows }, (_, i) => ({ i, text: 'some words in a row' })) }]);

  it('4.4: validates on a worker thread, with the same issues as in place (image URLs under the shared egress policy too)', async () => {
    const logo = target({ body: [{ type: 'image', id: 'logo', source: '{{ logo }}' }] });
    const urls = body([{ logo: 'https://169.254.169.254/logo.png' }, { logo: 'https://93.184.216.34/logo.png' }]);
    await expect(service.validate(logo, urls)).resolves.toEqual(validateDocuments(logo, urls, POLICY));
    const documents = body([{ number: 1, customer: { name: 'A' } }, { number: 2 }]);
    await expect(service.validate(target(INVOICE), documents)).resolves.toEqual(validateDocuments(target(INVOICE), documents, POLICY));
  });

  it('8: the event loop keeps turning while a large document is validated', async () => {
    const large = manyRows(200_000);
    const { result: issues, turns } = await countEventLoopTurns(() => service.validate(target(INVOICE), large));
    expect(issues.map((i) => i.type)).toEqual([RenderIssueType.UnresolvedFont]);
    expect(turns).toBeGreaterThan(1);
  });

  it('issue 31 item 1 and spec 8: a validation past the render budget ends with one batch-wide RenderTimeout issue (an Error: not valid)', async () => {
    // a 1 ms budget: checking 200,000 rows takes longer on any machine
    const hurried = new RenderValidationService({ ...loadSettings(renderApiSettings, {}), validationThreads: 1 }, new RenderBudget(1));
    try {
      const issues = await hurried.validate(target(INVOICE), manyRows(200_000));
      expect(issues).toEqual([expect.objectContaining({ type: RenderIssueType.RenderTimeout, severity: IssueSeverity.Error, documentIndex: null, description: expect.stringContaining('RENDER_BUDGET_MS') })]);
    } finally {
      await hurried.onModuleDestroy();
    }
  });

  it('issue 31 item 2: a validation needing more heap than RENDER_API_VALIDATION_HEAP_MB ends with a RenderTimeout issue naming the setting; the replaced thread validates the next', async () => {
    const small = new RenderValidationService({ ...loadSettings(renderApiSettings, {}), validationThreads: 1, validationHeapMb: 128 }, new RenderBudget(600_000));
    try {
      const documents = body([{ number: 1, customer: { name: 'A' } }]);
      const expected = validateDocuments(target(INVOICE), documents, POLICY);
      await expect(small.validate(target(INVOICE), documents)).resolves.toEqual(expected);
      // about 42 MB of JSON (under the 50 MB per document), more than 128 MB once parsed
      const issues = await small.validate(target(INVOICE), manyRows(1_000_000));
      expect(issues).toEqual([expect.objectContaining({ type: RenderIssueType.RenderTimeout, severity: IssueSeverity.Error, description: expect.stringContaining('128 MB a validation thread may use (RENDER_API_VALIDATION_HEAP_MB)') })]);
      await expect(small.validate(target(INVOICE), documents)).resolves.toEqual(expected);
    } finally {
      await small.onModuleDestroy();
    }
  }, 180_000);
});
