import { DomainError, ErrorCode, MessageName, RenderIssueType, type RenderDocumentCommand, type RenderDocumentResult } from '@docrender/contracts';
import { MessageBusUnavailableError, RequestTimeoutError } from '@docrender/messaging';
import { renderTargetFixture } from '@docrender/testing';
import { RenderBudget } from './render-command';
import { RenderServiceClient, type RenderServiceBus } from './render-service.client';

const target = renderTargetFixture({ fallbackDocumentName: 'Invoice' });
const document = { requestId: 'request-1:0', data: { json: '{}' }, outputBlobKey: 'out/0.pdf' };
const rendered: RenderDocumentResult = { outcome: 'rendered', issues: [], documentName: 'Invoice 1', pdf: null, renderDurationMs: 12, failure: null };

/** A bus whose every request ends as `answer` says, recording what was sent and how long the sender would wait. */
function busThat(answer: 'reply' | 'timeout' | 'unavailable') {
  const sent: { name: MessageName; payload: unknown; timeoutMs: number }[] = [];
  const bus: RenderServiceBus = {
    request: (async (name: MessageName, payload: unknown, { timeoutMs }: { timeoutMs: number }) => {
      sent.push({ name, payload, timeoutMs });
      if (answer === 'timeout') throw new RequestTimeoutError(name, timeoutMs);
      if (answer === 'unavailable') throw new MessageBusUnavailableError('RabbitMQ did not answer within 5000 ms');
      return rendered;
    }) as RenderServiceBus['request'],
  };
  return { bus, sent };
}

describe('RenderServiceClient: the one way to the render service, one timeout policy (issue 37 item 1, spec 8)', () => {
  it('8: every sender waits the render budget and the one grace past it; the command carries the budget as its deadline', async () => {
    const { bus, sent } = busThat('reply');
    const client = new RenderServiceClient(bus, new RenderBudget(60_000), 10_000);
    const before = Date.now();
    await expect(client.renderForClient(target, document)).resolves.toBe(rendered);
    await expect(client.renderForJob(target, document)).resolves.toBe(rendered);
    expect(sent.map((s) => [s.name, s.timeoutMs])).toEqual([
      [MessageName.RenderDocument, 70_000],
      [MessageName.RenderDocument, 70_000],
    ]);
    const deadline = (sent[0].payload as RenderDocumentCommand).deadline;
    expect(deadline).toBeGreaterThanOrEqual(before + 60_000);
    expect(deadline).toBeLessThanOrEqual(Date.now() + 60_000);
  });

  it('8: a caller holding a connection gets no reply in time as the document’s RenderTimeout issue, named by its budget', async () => {
    const client = new RenderServiceClient(busThat('timeout').bus, new RenderBudget(60_000), 10_000);
    const result = await client.renderForClient(target, document);
    expect(result).toMatchObject({ outcome: 'failed', documentName: 'Invoice', pdf: null, failure: { code: ErrorCode.RenderTimeout } });
    expect(result.issues).toEqual([expect.objectContaining({ type: RenderIssueType.RenderTimeout, description: 'no render result within the 60000 ms render budget' })]);
  });

  it('a caller holding a connection gets an unreachable message bus as 500 ExternalServiceError', async () => {
    const client = new RenderServiceClient(busThat('unavailable').bus, new RenderBudget(60_000), 10_000);
    const error = await client.renderForClient(target, document).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: ErrorCode.ExternalServiceError });
  });

  it('3.1: an async job gets either as an outage of the render service, thrown for its outage handling', async () => {
    await expect(new RenderServiceClient(busThat('timeout').bus, new RenderBudget(60_000), 10_000).renderForJob(target, document)).rejects.toBeInstanceOf(RequestTimeoutError);
    await expect(new RenderServiceClient(busThat('unavailable').bus, new RenderBudget(60_000), 10_000).renderForJob(target, document)).rejects.toBeInstanceOf(
      MessageBusUnavailableError,
    );
  });

  it('4.12: a preview image with no answer is 500 ExternalServiceError saying why', async () => {
    for (const answer of ['timeout', 'unavailable'] as const) {
      const { bus, sent } = busThat(answer);
      const client = new RenderServiceClient(bus, new RenderBudget(30_000), 0);
      const command = { requestId: 'p', organisationId: 'org-1', template: {}, sampleData: {}, translations: null, customFonts: [], outputBlobKey: 'p.png' };
      const error = await client.previewImage(command).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: ErrorCode.ExternalServiceError, message: expect.stringContaining('the render service could not make the preview image now') });
      expect(sent[0]).toMatchObject({ name: MessageName.RenderPreview, timeoutMs: 30_000 });
    }
  });
});
