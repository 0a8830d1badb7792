import { DocumentType, Environment, IssueSeverity, JobState, RenderIssueType, RenderStatus } from '@docrender/contracts';
import { thrownBy } from '../test/thrown-by';
import { parseCallback } from './callback-parser';
import { MalformedCallbackError } from './malformed-callback.error';

const document = {
  id: '0d8f7d8e-2a55-4f0e-9a0c-6a1b8f0f6a11',
  viewUrl: 'https://files.example/doc.pdf?sig=abc',
  documentBase64: null,
  documentIndex: 3,
  documentName: 'Invoice 2026-0042',
  templateId: 'b4a3c2d1-0000-4000-8000-000000000001',
  versionNumber: 2,
  environment: Environment.Test,
  fileSizeBytes: 48213,
  pageCount: 2,
  renderedAt: '2026-11-21T10:00:00.000Z',
  renderDuration: 812.5,
  documentType: DocumentType.Template,
  language: null,
};

const progress = { jobId: '4f1c2a9e-0b7d-4c1e-9a51-2b3c4d5e6f70', processed: 4, requestedCount: 10, documentIndex: 3, document };

const completion = {
  jobId: '4f1c2a9e-0b7d-4c1e-9a51-2b3c4d5e6f70',
  state: JobState.Completed,
  status: RenderStatus.Partial,
  renderedCount: 9,
  requestedCount: 10,
  missingCount: 1,
  message: '9 of 10 documents rendered',
  issues: [
    { type: RenderIssueType.MissingBinding, severity: IssueSeverity.Warning, description: 'customer.name', elementId: 'e1', documentIndex: 7 },
    { type: RenderIssueType.RenderTimeout, severity: IssueSeverity.Error, description: 'timed out', elementId: null, documentIndex: null },
  ],
};

const problemOf = (raw: string): string => thrownBy(MalformedCallbackError, () => parseCallback(raw)).problem;

describe('parseCallback', () => {
  it('2.11: a body with a document member is a progress callback (2.10)', () => {
    expect(parseCallback(JSON.stringify(progress))).toEqual({ kind: 'progress', body: progress });
  });

  it('2.10: a progress document carrying documentBase64 keeps it; one without it reads as null', () => {
    const withPdf = { ...progress, document: { ...document, documentBase64: 'JVBERi0=' } };
    expect(parseCallback(JSON.stringify(withPdf))).toEqual({ kind: 'progress', body: withPdf });
    const { documentBase64: _omitted, ...withoutPdf } = document;
    expect(parseCallback(JSON.stringify({ ...progress, document: withoutPdf }))).toEqual({ kind: 'progress', body: progress });
  });

  it('2.11: a body without a document member is a completion callback', () => {
    expect(parseCallback(JSON.stringify(completion))).toEqual({ kind: 'completion', body: completion });
  });

  it('2.11: a failed job with no issues is a completion callback', () => {
    const failed = { ...completion, state: JobState.Failed, status: RenderStatus.Failed, renderedCount: 0, missingCount: 10, issues: [] };
    expect(parseCallback(Buffer.from(JSON.stringify(failed)))).toEqual({ kind: 'completion', body: failed });
  });

  it('members the contract does not name are ignored (forward compatible)', () => {
    expect(parseCallback(JSON.stringify({ ...completion, extra: 1 }))).toEqual({ kind: 'completion', body: completion });
  });

  it.each<[string, string, string]>([
    ['not JSON', '{"jobId":', 'the body is not JSON'],
    ['a JSON array', '[]', 'body must be an object'],
    ['JSON null', 'null', 'body must be an object'],
    ['an empty object', '{}', 'issues must be an array'],
    ['progress without jobId', JSON.stringify({ ...progress, jobId: undefined }), 'jobId must be a string'],
    ['progress with processed as a string', JSON.stringify({ ...progress, processed: '4' }), 'processed must be a non-negative number'],
    ['progress with a fractional documentIndex', JSON.stringify({ ...progress, documentIndex: 1.5 }), 'documentIndex must be a whole number'],
    ['progress with document null', JSON.stringify({ ...progress, document: null }), 'document must be an object'],
    ['progress with document an array', JSON.stringify({ ...progress, document: [] }), 'document must be an object'],
    ['progress whose document lacks pageCount', JSON.stringify({ ...progress, document: { ...document, pageCount: undefined } }), 'document.pageCount must be a non-negative number'],
    ['progress whose document has an unknown environment', JSON.stringify({ ...progress, document: { ...document, environment: 'staging' } }), 'document.environment must be one of test, production'],
    ['completion with state pending', JSON.stringify({ ...completion, state: 'pending' }), 'state must be one of completed, failed'],
    ['completion with an unknown status', JSON.stringify({ ...completion, status: 'great' }), 'status must be one of ok, partial, failed, insufficient_credit'],
    ['completion without message', JSON.stringify({ ...completion, message: undefined }), 'message must be a string'],
    ['completion with a negative count', JSON.stringify({ ...completion, missingCount: -1 }), 'missingCount must be a non-negative number'],
    ['completion with issues an object', JSON.stringify({ ...completion, issues: {} }), 'issues must be an array'],
    ['completion with an issue of unknown severity', JSON.stringify({ ...completion, issues: [{ ...completion.issues[0], severity: 'Fatal' }] }), 'issues[0].severity must be one of Information, Warning, Error'],
    ['completion with an issue lacking elementId', JSON.stringify({ ...completion, issues: [completion.issues[1], { ...completion.issues[0], elementId: undefined }] }), 'issues[1].elementId must be a string or null'],
  ])('2.11: a body matching neither shape is malformed (%s)', (_case, raw, problem) => {
    expect(problemOf(raw)).toBe(problem);
  });
});
