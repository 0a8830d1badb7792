import { ContractAnswers } from './contract-answers';

const answers = new ContractAnswers();
const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const headers = (contentType?: string) => new Headers(contentType ? { 'content-type': contentType } : {});
const BASE = 'http://127.0.0.1:3000';
const JOB = '0d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f4a';

describe('answers checked against docs/openapi.json (issue 22: every answer validates against the document)', () => {
  it('2.9: a pending job status (status null) conforms; a status outside the enum does not', () => {
    const pending = { jobId: JOB, state: 'pending', status: null, renderedCount: 0, requestedCount: 2, missingCount: 2, issues: [], startedAt: '2026-11-24T10:00:00.000Z', completedAt: null, failureReason: null };
    const answer = { method: 'GET', url: `${BASE}/v1/render/jobs/${JOB}`, status: 200, headers: headers('application/json; charset=utf-8') };
    expect(answers.problemsOf({ ...answer, body: json(pending) })).toEqual([]);
    expect(answers.problemsOf({ ...answer, body: json({ ...pending, status: 'done' }) })).toEqual([expect.stringContaining('body/status must be equal to one of the allowed values')]);
  });

  it('7.1: an error answer must be the error envelope with a known code, as JSON', () => {
    const answer = { method: 'GET', url: `${BASE}/v1/documents/${JOB}/file`, status: 404 };
    expect(answers.problemsOf({ ...answer, headers: headers('application/json'), body: json({ error: { code: 'DocumentNotFound', message: 'document not found' } }) })).toEqual([]);
    expect(answers.problemsOf({ ...answer, headers: headers('application/json'), body: json({ error: { code: 'Gone', message: 'x' } }) })).toHaveLength(1);
    expect(answers.problemsOf({ ...answer, headers: headers('text/html'), body: Buffer.from('<h1>404</h1>') })).toEqual([expect.stringContaining('content type text/html not declared')]);
  });

  it('an undeclared status of a described operation is a problem; a route the document does not describe is not looked at', () => {
    expect(answers.problemsOf({ method: 'GET', url: `${BASE}/v1/meta/version`, status: 418, headers: headers(), body: Buffer.alloc(0) })).toEqual([expect.stringContaining('status not declared')]);
    expect(answers.problemsOf({ method: 'GET', url: `${BASE}/v1/nowhere`, status: 404, headers: headers('application/json'), body: json({}) })).toEqual([]);
  });

  it('4.15: the PDF of a document download is binary application/pdf; the probe’s 503 is plain text', () => {
    expect(answers.problemsOf({ method: 'GET', url: `${BASE}/v1/documents/${JOB}/file`, status: 200, headers: headers('application/pdf'), body: Buffer.from('%PDF-1.7') })).toEqual([]);
    expect(answers.problemsOf({ method: 'GET', url: `${BASE}/v1/meta/status`, status: 503, headers: headers('text/plain; charset=utf-8'), body: Buffer.from('database') })).toEqual([]);
  });

  it('6.1 / 2.10 / 2.11: callback bodies are checked against the callbacks of the enqueue operation, by event', () => {
    const completion = { jobId: JOB, state: 'completed', status: 'partial', renderedCount: 1, requestedCount: 2, missingCount: 1, message: 'm', issues: [] };
    expect(answers.callbackProblems('render.completed', JSON.stringify(completion))).toEqual([]);
    expect(answers.callbackProblems('render.failed', JSON.stringify({ ...completion, state: 'pending' }))).toEqual([expect.stringContaining('body/state must be equal to one of the allowed values')]);
    expect(answers.callbackProblems('render.progress', JSON.stringify(completion))).toEqual(expect.arrayContaining([expect.stringContaining("must have required property 'document'")]));
    expect(answers.callbackProblems('render.started', '{}')).toEqual(['callback render.started: no callback of the document sends this event']);
  });
});
