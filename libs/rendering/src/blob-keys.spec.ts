import { assertValidBlobKey } from '@docrender/storage';
import { jobDocumentId } from './deterministic-id';
import { jobDocumentPdfBlobKey, jobInputKey, jobInputPrefix, renderInputBlobKey, syncDocumentPdfBlobKey } from './blob-keys';

describe('the blob-key layout of rendered documents and their inputs', () => {
  const job = { id: '0b0e8a52-4a4e-4b8f-9a55-1c9c2f3f6d10', organisationId: 'org-1' };

  it('2.4: a persisted document of a job lives where every stored document does, under its name-based id (the same for every run)', () => {
    expect(jobDocumentPdfBlobKey({ ...job, persist: true }, 3)).toBe(`organisations/org-1/documents/${jobDocumentId(job.id, 3)}.pdf`);
    expect(jobDocumentPdfBlobKey({ ...job, persist: true }, 3)).toBe(syncDocumentPdfBlobKey('org-1', 'any', 0, jobDocumentId(job.id, 3)));
  });

  it('a job document not persisted waits under the job (deleted with it); a sync one under its request', () => {
    expect(jobDocumentPdfBlobKey({ ...job, persist: false }, 3)).toBe(`jobs/${job.id}/output/3.pdf`);
    expect(syncDocumentPdfBlobKey('org-1', 'request-1', 2, null)).toBe('organisations/org-1/transient/request-1/2.pdf');
  });

  it('4.5: a job’s documents wait under its input prefix, one JSON file each', () => {
    expect(jobInputKey(jobInputPrefix(job.id), 7)).toBe(`jobs/${job.id}/input/7.json`);
  });

  it('every key the layout makes is one both blob stores accept, whatever the request id', () => {
    for (const key of [renderInputBlobKey('org-1', 'req/../x:1'), jobDocumentPdfBlobKey({ ...job, persist: false }, 0), syncDocumentPdfBlobKey('org-1', 'r', 0, null)]) {
      expect(() => assertValidBlobKey(key)).not.toThrow();
    }
    expect(renderInputBlobKey('org-1', 'req/../x:1')).toBe('organisations/org-1/render-inputs/req_.._x_1.json');
  });
});
