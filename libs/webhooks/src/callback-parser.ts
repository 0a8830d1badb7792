import {
  CallbackBody,
  CompletionCallbackDto,
  DocumentType,
  Environment,
  IssueSeverity,
  JobState,
  ProgressCallbackDto,
  RenderedDocumentDto,
  RenderIssueDto,
  RenderIssueType,
  RenderStatus,
} from '@docrender/contracts';
import { MalformedCallbackError } from './malformed-callback.error';

type JsonObject = Record<string, unknown>;

/**
 * Reads a callback body that has already passed `WebhookVerifier.verify` (spec 6.4 rule 6: verify before parsing).
 * A body with a `document` member is a progress callback (2.10); one without is a completion callback (2.11)
 * (spec 2.11 closing note). Every field of the chosen shape is checked for presence and type, enums against the
 * contract's values; members the contract does not name are ignored, so additions by the service do not break receivers.
 * A progress document without `documentBase64` (includeDocument was false) reads as `documentBase64: null`.
 * @throws MalformedCallbackError naming the first field that does not fit (invalid JSON included)
 */
export function parseCallback(rawBodyVerified: string | Buffer): CallbackBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof rawBodyVerified === 'string' ? rawBodyVerified : rawBodyVerified.toString('utf8'));
  } catch {
    throw new MalformedCallbackError('the body is not JSON');
  }
  const body = object(parsed, 'body');
  return 'document' in body
    ? { kind: 'progress', body: progressBody(body) }
    : { kind: 'completion', body: completionBody(body) };
}

function progressBody(body: JsonObject): ProgressCallbackDto {
  return {
    jobId: nonEmptyString(body, 'jobId'),
    processed: count(body, 'processed'),
    requestedCount: count(body, 'requestedCount'),
    documentIndex: count(body, 'documentIndex'),
    document: renderedDocument(object(body.document, 'document')),
  };
}

function renderedDocument(doc: JsonObject): RenderedDocumentDto {
  const path = 'document';
  return {
    id: nullableString(doc, 'id', path),
    viewUrl: nullableString(doc, 'viewUrl', path),
    documentBase64: doc.documentBase64 === undefined ? null : nullableString(doc, 'documentBase64', path),
    documentIndex: count(doc, 'documentIndex', path),
    documentName: string(doc, 'documentName', path),
    templateId: nonEmptyString(doc, 'templateId', path),
    versionNumber: count(doc, 'versionNumber', path),
    environment: oneOf(doc, 'environment', Object.values(Environment), path),
    fileSizeBytes: count(doc, 'fileSizeBytes', path),
    pageCount: count(doc, 'pageCount', path),
    renderedAt: nonEmptyString(doc, 'renderedAt', path),
    renderDuration: nonNegativeNumber(doc, 'renderDuration', path),
    documentType: oneOf(doc, 'documentType', Object.values(DocumentType), path),
    language: nullableString(doc, 'language', path),
  };
}

function completionBody(body: JsonObject): CompletionCallbackDto {
  const issues = body.issues;
  if (!Array.isArray(issues)) throw new MalformedCallbackError('issues must be an array');
  return {
    jobId: nonEmptyString(body, 'jobId'),
    state: oneOf(body, 'state', [JobState.Completed, JobState.Failed] as const),
    status: oneOf(body, 'status', Object.values(RenderStatus)),
    renderedCount: count(body, 'renderedCount'),
    requestedCount: count(body, 'requestedCount'),
    missingCount: count(body, 'missingCount'),
    message: string(body, 'message'),
    issues: issues.map((issue, i) => renderIssue(object(issue, `issues[${i}]`), `issues[${i}]`)),
  };
}

function renderIssue(issue: JsonObject, path: string): RenderIssueDto {
  return {
    type: oneOf(issue, 'type', Object.values(RenderIssueType), path),
    severity: oneOf(issue, 'severity', Object.values(IssueSeverity), path),
    description: string(issue, 'description', path),
    elementId: nullableString(issue, 'elementId', path),
    documentIndex: issue.documentIndex === null ? null : count(issue, 'documentIndex', path),
  };
}

function object(value: unknown, path: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new MalformedCallbackError(`${path} must be an object`);
  }
  return value as JsonObject;
}

function name(key: string, path?: string): string {
  return path === undefined ? key : `${path}.${key}`;
}

function string(o: JsonObject, key: string, path?: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw new MalformedCallbackError(`${name(key, path)} must be a string`);
  return v;
}

function nonEmptyString(o: JsonObject, key: string, path?: string): string {
  const v = string(o, key, path);
  if (v === '') throw new MalformedCallbackError(`${name(key, path)} must not be empty`);
  return v;
}

function nullableString(o: JsonObject, key: string, path?: string): string | null {
  const v = o[key];
  if (v === null) return null;
  if (typeof v !== 'string') throw new MalformedCallbackError(`${name(key, path)} must be a string or null`);
  return v;
}

function nonNegativeNumber(o: JsonObject, key: string, path?: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
    throw new MalformedCallbackError(`${name(key, path)} must be a non-negative number`);
  }
  return v;
}

function count(o: JsonObject, key: string, path?: string): number {
  const v = nonNegativeNumber(o, key, path);
  if (!Number.isInteger(v)) throw new MalformedCallbackError(`${name(key, path)} must be a whole number`);
  return v;
}

function oneOf<T extends string>(o: JsonObject, key: string, values: readonly T[], path?: string): T {
  const v = o[key];
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
    throw new MalformedCallbackError(`${name(key, path)} must be one of ${values.join(', ')}`);
  }
  return v as T;
}
