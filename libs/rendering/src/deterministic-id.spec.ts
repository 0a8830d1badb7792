import { completionDeliveryId, jobDocumentId, progressDeliveryId, uuidV5 } from './deterministic-id';

describe('deterministic ids', () => {
  it('RFC 9562 test vector: uuidV5("www.example.com", DNS namespace)', () => {
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('6.2: X-Service-Delivery is the same for a job run again, and distinct per document and for the completion', () => {
    const jobId = '0b0e8a52-4a4e-4b8f-9a55-1c9c2f3f6d10';
    expect(progressDeliveryId(jobId, 3)).toBe(progressDeliveryId(jobId, 3));
    const ids = new Set([progressDeliveryId(jobId, 0), progressDeliveryId(jobId, 1), completionDeliveryId(jobId), jobDocumentId(jobId, 0)]);
    expect(ids.size).toBe(4);
    expect(progressDeliveryId(jobId, 0)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
