import type { ResponseShape } from './response-body';

/**
 * The fields the SDK checks before handing an answer on (a missing or mistyped one is a ResponseDecodeError). The
 * checks are deliberately shallow: identifying fields and the arrays callers iterate, so that a field the service adds
 * or a nullable one it fills never breaks a client.
 */
export const SHAPES = {
  renderEnvelope: { status: 'string', requestedCount: 'number', renderedCount: 'number', missingCount: 'number', issues: 'array', documents: 'array' },
  validateResponse: { issues: 'array' },
  jobAccepted: { jobId: 'string', requestedCount: 'number', state: 'string' },
  jobStatus: { jobId: 'string', state: 'string', renderedCount: 'number', requestedCount: 'number', missingCount: 'number', issues: 'array' },
  template: { id: 'string', name: 'string', latestVersionNumber: 'number?', versionCount: 'number' },
  versionSummary: { id: 'string', versionNumber: 'number', templateId: 'string', publishedAt: 'string?' },
  version: { id: 'string', versionNumber: 'number', templateId: 'string', templateJson: 'string', sampleData: 'string' },
  previewImage: { url: 'string' },
  storedDocument: { id: 'string', documentName: 'string', templateId: 'string', versionNumber: 'number', isPdfDeleted: 'boolean' },
  fontFamily: { family: 'string', source: 'string', variants: 'array' },
  organisationStats: { organisationName: 'string', pagesAvailable: 'number', pagesUsedThisPeriod: 'number' },
  versionProbe: { version: 'string' },
} as const satisfies Record<string, ResponseShape>;
