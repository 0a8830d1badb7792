import { ErrorCode, type RenderEnvelopeDto } from '@docrender/contracts';
import { documentsOf, expectAnswerMatchesContract, startAsyncStack, waitFor, type AsyncStack } from '@docrender/testing';

jest.setTimeout(300_000);

const PAGES = 2;
const BATCH = 20;

/**
 * Issue 31 item 6, "outages never charge for what was not delivered": a sync batch (spec 4.2) cut by a PostgreSQL
 * outage. The gateway reaches PostgreSQL through a TCP fault proxy that the test cuts mid-batch; the render stand-in
 * renders every document (2 pages, 200 ms each). Before, the batch answered 500 ExternalServiceError after documents
 * had been stored and charged, the client never got their ids, and the retry it was invited to make paid again. The
 * gateway reaches S3 through a fault proxy too (the stand-in stores the PDFs directly), for an answer that fails
 * after its documents were paid for.
 */
describe('issue 31 item 6: PostgreSQL cut during a sync batch (the apps as processes)', () => {
  let stack: AsyncStack;

  beforeAll(async () => {
    stack = await startAsyncStack('db-outage-render', { RENDER_API_BATCH_CONCURRENCY: '2', DB_POOL_SIZE: '4' }, { renderDelayMs: 200, faults: { postgres: ['api-gateway'], s3: ['api-gateway'] } });
  });

  afterAll(async () => {
    stack?.faults.postgres?.forward();
    stack?.faults.s3?.forward();
    await stack?.teardown();
  });

  const db = () => stack.infra.db.dataSource;
  const storedIds = async (): Promise<string[]> =>
    ((await db().query(`SELECT id FROM documents WHERE organisation_id = $1 ORDER BY id`, [stack.tenant.organisationId])) as { id: string }[]).map((r) => r.id);
  const pagesUsed = async (): Promise<number> => {
    const [row] = (await db().query(`SELECT COALESCE(SUM(pages_used), 0)::int AS pages FROM usage_periods WHERE organisation_id = $1`, [stack.tenant.organisationId])) as { pages: number }[];
    return row.pages;
  };
  const render = async (documents: unknown[]) => {
    const res = await fetch(`${stack.gatewayUrl}/v1/render/${stack.tenant.templateId}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${stack.prodKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ documents }),
    });
    const body = Buffer.from(await res.arrayBuffer());
    expectAnswerMatchesContract({ method: 'POST', url: res.url, status: res.status, headers: res.headers, body });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: JSON.parse(body.toString('utf8')) as RenderEnvelopeDto & { error?: { code: string } } };
  };
  /** Renders until the gateway answers 200 (its pool may hand out a connection the cut killed: that is a 500 too). */
  const renderOnceBack = (documents: unknown[]) =>
    waitFor('a 200 answer once PostgreSQL is back', async () => {
      const answer = await render(documents);
      return answer.status === 200 ? answer : undefined;
    }, 60_000, 250);
  /** `send` with S3 cut from the gateway, forwarded again however `send` ends. */
  const withS3Cut = async <T>(send: () => Promise<T>): Promise<T> => {
    const s3 = stack.faults.s3!;
    s3.cut();
    try {
      return await send();
    } finally {
      s3.forward();
    }
  };

  it('a batch cut after some documents were paid answers them (200 partial) with an issue for each other one; only what was answered is charged, and sending the rest again pays for each document once', async () => {
    const usedBefore = await pagesUsed();
    const documents = documentsOf(BATCH, 'ok', PAGES);
    const answering = render(documents);
    const proxy = stack.faults.postgres!;
    await waitFor('three documents stored', async () => ((await storedIds()).length >= 3 ? true : undefined), 60_000, 20);
    proxy.cut();
    const answer = await answering;
    proxy.forward();

    expect(answer.status).toBe(200);
    const envelope = answer.body;
    expect(envelope.status).toBe('partial');
    expect(envelope.renderedCount).toBeGreaterThanOrEqual(3);
    expect(envelope.renderedCount).toBeLessThan(BATCH);
    const answeredIds = envelope.documents.map((d) => d.id as string);
    const answeredIndexes = new Set(envelope.documents.map((d) => d.documentIndex));
    const missing = documents.map((_, i) => i).filter((i) => !answeredIndexes.has(i));
    // Spec 3.1 rule 2: every missing document is explained, with its index, and says it was not charged.
    expect(envelope.issues.map((i) => i.documentIndex)).toEqual(missing);
    for (const issue of envelope.issues) expect([issue.type, issue.severity, issue.description]).toEqual(['RenderTimeout', 'Error', expect.stringMatching(/not charged/)]);

    // What was charged was answered: every stored row is among the answered ids, and the pages taken are theirs.
    const stored = await storedIds();
    expect(answeredIds).toEqual(expect.arrayContaining(stored));
    expect((await pagesUsed()) - usedBefore).toBe(stored.length * PAGES);
    // An answered id without a row is one whose recording was in flight when the link was cut (neither stored nor charged); the message names it.
    const unstored = answeredIds.filter((id) => !stored.includes(id));
    if (unstored.length > 0) expect(envelope.message).toMatch(/were being recorded/);

    // The client sends again exactly the documents the issues name: each is paid once.
    const retry = await renderOnceBack(missing.map((i) => documents[i]));
    expect([retry.body.status, retry.body.renderedCount]).toEqual(['ok', missing.length]);
    const finallyStored = await storedIds();
    expect(finallyStored).toHaveLength(stored.length + missing.length);
    expect((await pagesUsed()) - usedBefore).toBe(finallyStored.length * PAGES);
  });

  it('a batch cut before anything was paid answers 500 ExternalServiceError with Retry-After and charges nothing, so its retry pays once', async () => {
    const usedBefore = await pagesUsed();
    const storedBefore = (await storedIds()).length;
    const rendersBefore = stack.renderer!.renders.size;
    const documents = documentsOf(3, 'ok', PAGES);
    const answering = render(documents);
    const proxy = stack.faults.postgres!;
    // The first document is at the render stand-in (200 ms): nothing of this request is recorded yet.
    await waitFor('the first document at the renderer', () => (stack.renderer!.renders.size > rendersBefore ? true : undefined), 60_000, 5);
    proxy.cut();
    const answer = await answering;
    proxy.forward();

    expect([answer.status, answer.body.error?.code, answer.retryAfter]).toEqual([500, ErrorCode.ExternalServiceError, '5']);
    expect(await storedIds()).toHaveLength(storedBefore);
    expect(await pagesUsed()).toBe(usedBefore);

    const retry = await renderOnceBack(documents);
    expect([retry.body.status, retry.body.renderedCount]).toEqual(['ok', 3]);
    expect(await storedIds()).toHaveLength(storedBefore + 3);
    expect(await pagesUsed()).toBe(usedBefore + 3 * PAGES);
  });

  it('a retry after a 5xx never pays twice for the same input: an answer that failed after its documents were paid (S3 cut while the gateway reads the PDFs back) is answered by the same request sent again, nothing rendered or charged again (decision 0041)', async () => {
    const usedBefore = await pagesUsed();
    const storedBefore = await storedIds();
    const documents = documentsOf(2, 'ok', PAGES);
    const send = async () => {
      const res = await fetch(`${stack.gatewayUrl}/v1/render/${stack.tenant.templateId}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${stack.prodKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ documents, includeDocument: true }),
      });
      const body = Buffer.from(await res.arrayBuffer());
      expectAnswerMatchesContract({ method: 'POST', url: res.url, status: res.status, headers: res.headers, body });
      return { status: res.status, retryAfter: res.headers.get('retry-after'), body: JSON.parse(body.toString('utf8')) as RenderEnvelopeDto & { error?: { code: string } } };
    };
    const failed = await withS3Cut(send);
    // rendered, stored and paid for; then the PDFs could not be read back for documentBase64
    expect([failed.status, failed.body.error?.code, failed.retryAfter]).toEqual([500, ErrorCode.ExternalServiceError, '5']);
    const paid = (await storedIds()).filter((id) => !storedBefore.includes(id));
    expect(paid).toHaveLength(2);
    expect((await pagesUsed()) - usedBefore).toBe(2 * PAGES);
    const rendersBefore = stack.renderer!.renders.size;

    // The retry it was invited to make: answered with the documents it paid for, their PDFs included; nothing more paid.
    const retry = await send();
    expect([retry.status, retry.body.status, retry.body.renderedCount]).toEqual([200, 'ok', 2]);
    expect(retry.body.documents.map((d) => d.id).sort()).toEqual([...paid].sort());
    for (const d of retry.body.documents) expect(Buffer.from(d.documentBase64!, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    expect(stack.renderer!.renders.size).toBe(rendersBefore);
    expect((await pagesUsed()) - usedBefore).toBe(2 * PAGES);
    expect(await storedIds()).toHaveLength(storedBefore.length + 2);

    // Once answered, the same request is a new print, paid as any other.
    const again = await send();
    expect([again.status, again.body.status]).toEqual([200, 'ok']);
    expect(again.body.documents.map((d) => d.id)).not.toEqual(expect.arrayContaining(paid));
    expect((await pagesUsed()) - usedBefore).toBe(4 * PAGES);
  });

  it('the stateless route (spec 4.3) too: a PDF paid for whose answer failed (S3 cut while the gateway reads it back) is the answer to the same request sent again, not paid again (decision 0041)', async () => {
    const usedBefore = await pagesUsed();
    const template = { dsl: 1, body: [{ type: 'text', id: 'greeting', text: 'Hello' }] };
    const [data] = documentsOf(1, 'ok', PAGES);
    const send = async () => {
      const res = await fetch(`${stack.gatewayUrl}/v1/render`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${stack.prodKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ template, data }),
      });
      const body = Buffer.from(await res.arrayBuffer());
      expectAnswerMatchesContract({ method: 'POST', url: res.url, status: res.status, headers: res.headers, body });
      return { status: res.status, retryAfter: res.headers.get('retry-after'), body };
    };
    const failed = await withS3Cut(send);
    expect([failed.status, (JSON.parse(failed.body.toString('utf8')) as { error: { code: string } }).error.code, failed.retryAfter]).toEqual([500, ErrorCode.ExternalServiceError, '5']);
    expect((await pagesUsed()) - usedBefore).toBe(PAGES);
    const rendersBefore = stack.renderer!.renders.size;

    const retry = await send();
    expect([retry.status, retry.body.subarray(0, 5).toString()]).toEqual([200, '%PDF-']);
    expect(stack.renderer!.renders.size).toBe(rendersBefore);
    expect((await pagesUsed()) - usedBefore).toBe(PAGES);
  });
});
