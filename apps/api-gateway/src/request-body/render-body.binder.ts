import { DomainError, ErrorCode, Limits } from '@docrender/contracts';
import { checkDocumentNameTemplate } from '@docrender/template-dsl/checks';
import type { JsonBodyScan, ScannedMember, ScannedValue } from './json-body.scanner';
import { checkText } from './text-input';

/** One document of a request: where its JSON text sits in the body, how large and how deep it is. */
export type DocumentSlice = {
  index: number;
  start: number;
  end: number;
  /** Bytes of JSON text. */
  bytes: number;
  /** Nesting depth; over Limits.maxNestingDepth is a DangerousContent issue, and the document is never parsed. */
  depth: number;
};

/** Spec 4.2 body, bound: the documents as slices of the raw body. */
export type RenderBody = { raw: Buffer; documents: DocumentSlice[]; includeDocument: boolean };

/** Spec 4.4 body, bound. */
export type ValidateBody = { raw: Buffer; documents: DocumentSlice[] };

/** Spec 4.5 body, bound: the documents as slices, as for a sync render. */
export type EnqueueBody = RenderBody & { callbackUrl: string };

/** Spec 4.11 body, bound. */
export type DocumentNameTemplateBody = { documentNameTemplate: string | null };

/** Spec 4.3 body, bound: `template` and `translations` are small enough to parse; `data` stays a slice. */
export type StatelessRenderBody = { raw: Buffer; template: DocumentSlice; data: DocumentSlice; translations: DocumentSlice | null };

/** The members the binders split into elements. */
export const DOCUMENTS_MEMBER = 'documents';

const bindingError = (message: string): DomainError => new DomainError(ErrorCode.BindingError, message);

/**
 * The top-level members of a body that is one JSON object. Members that are not documents (`documentKeys`) are
 * options of the request; one nesting deeper than spec 8's 32 levels is refused with 422 naming it (only documents
 * turn depth into a DangerousContent issue).
 */
function rootMembers(raw: Buffer, scan: JsonBodyScan, documentKeys: readonly string[]): Map<string, ScannedMember> {
  if (!scan.valid) {
    throw bindingError(raw.byteLength === 0 ? 'request body is empty: expected a JSON object' : `request body is not valid JSON: ${scan.reason}`);
  }
  if (scan.root !== 'object') throw bindingError(`request body must be a JSON object, got ${scan.root === 'array' ? 'an array' : `a ${scan.root}`}`);
  for (const member of scan.members) {
    if (member.depth > Limits.maxNestingDepth && !documentKeys.includes(member.key)) {
      throw bindingError(`${member.key}: nests ${member.depth} levels deep; the limit is ${Limits.maxNestingDepth}`);
    }
  }
  // Like JSON.parse, the last of repeated member names wins.
  return new Map(scan.members.map((m) => [m.key, m]));
}

function sliceOf(value: ScannedValue, index: number): DocumentSlice {
  return { index, start: value.start, end: value.end, bytes: value.end - value.start, depth: value.depth };
}

/** 413 when a document's JSON is over 50 MB; spec 8: per-document limits do not relax with batch size. */
function checkSize(slice: DocumentSlice, name: string): void {
  if (slice.bytes > Limits.maxDocumentBytes) {
    throw new DomainError(
      ErrorCode.PayloadTooLarge,
      `${name} is ${slice.bytes} bytes of JSON; the limit is ${Limits.maxDocumentBytes} bytes (50 MB) per document`,
    );
  }
}

function bindDocuments(members: Map<string, ScannedMember>): DocumentSlice[] {
  const documents = members.get(DOCUMENTS_MEMBER);
  if (documents === undefined || documents.elements === null) throw bindingError('documents: must be an array of JSON objects, one per document');
  if (documents.elements.length === 0) throw bindingError('documents: must contain at least one document');
  const notObject = documents.elements.findIndex((e) => e.kind !== 'object');
  if (notObject >= 0) throw bindingError(`documents[${notObject}]: must be a JSON object, got ${documents.elements[notObject].kind}`);
  const slices = documents.elements.map(sliceOf);
  for (const slice of slices) checkSize(slice, `documents[${slice.index}]`);
  return slices;
}

/** An optional boolean member: absent or null is `false`. */
function optionalBoolean(raw: Buffer, members: Map<string, ScannedMember>, key: string): boolean {
  const member = members.get(key);
  if (member === undefined || member.kind === 'null') return false;
  if (member.kind !== 'boolean') throw bindingError(`${key}: must be a boolean, got ${member.kind}`);
  return raw[member.start] === 0x74; // 't'rue
}

/** Spec 4.2: `documents` (array of objects, each at most 50 MB) and `includeDocument` (boolean, default false). */
export function bindRenderBody(raw: Buffer, scan: JsonBodyScan): RenderBody {
  const members = rootMembers(raw, scan, [DOCUMENTS_MEMBER]);
  return { raw, documents: bindDocuments(members), includeDocument: optionalBoolean(raw, members, 'includeDocument') };
}

/** Spec 4.4: `documents` (array of objects, each at most 50 MB). */
export function bindValidateBody(raw: Buffer, scan: JsonBodyScan): ValidateBody {
  return { raw, documents: bindDocuments(rootMembers(raw, scan, [DOCUMENTS_MEMBER])) };
}

/** The text of a string member, checked like every text input (text-input.ts); null when absent or null. */
function optionalString(raw: Buffer, members: Map<string, ScannedMember>, key: string, maxLength: number): string | null {
  const member = members.get(key);
  if (member === undefined || member.kind === 'null') return null;
  if (member.kind !== 'string') throw bindingError(`${key}: must be a string, got ${member.kind}`);
  return checkText(key, raw.subarray(member.start, member.end), maxLength);
}

/** Longest callbackUrl accepted (characters). */
export const CALLBACK_URL_MAX_LENGTH = 2048;
/** Longest document-name template accepted (characters). */
export const DOCUMENT_NAME_TEMPLATE_MAX_LENGTH = 500;

/**
 * Spec 4.5: the documents and includeDocument of 4.2, and `callbackUrl` (a string, required; whether it is a URL the
 * service will call is the egress policy's check at enqueue, jobs/callback-url.ts).
 */
export function bindEnqueueBody(raw: Buffer, scan: JsonBodyScan): EnqueueBody {
  const members = rootMembers(raw, scan, [DOCUMENTS_MEMBER]);
  const documents = bindDocuments(members);
  const includeDocument = optionalBoolean(raw, members, 'includeDocument');
  const callbackUrl = optionalString(raw, members, 'callbackUrl', CALLBACK_URL_MAX_LENGTH);
  if (callbackUrl === null) throw bindingError('callbackUrl: is required and must be a string');
  return { raw, documents, includeDocument, callbackUrl };
}

/** Spec 4.11: `documentNameTemplate`, a string or null (null clears it); required; its bindings must parse. */
export function bindDocumentNameTemplateBody(raw: Buffer, scan: JsonBodyScan): DocumentNameTemplateBody {
  const members = rootMembers(raw, scan, []);
  if (!members.has('documentNameTemplate')) throw bindingError('documentNameTemplate: is required (a string, or null to clear it)');
  const documentNameTemplate = optionalString(raw, members, 'documentNameTemplate', DOCUMENT_NAME_TEMPLATE_MAX_LENGTH);
  // The render's own check of the pattern (checkTemplateVersion): a pattern a render would ignore is never stored.
  const [error] = checkDocumentNameTemplate(documentNameTemplate);
  if (error) throw bindingError(`${error.path}: ${error.message}`);
  return { documentNameTemplate };
}

function requiredObject(members: Map<string, ScannedMember>, key: string, what: string): DocumentSlice {
  const member = members.get(key);
  if (member === undefined) throw bindingError(`${key}: is required (${what})`);
  if (member.kind !== 'object') throw bindingError(`${key}: must be a JSON object (${what}), got ${member.kind}`);
  return sliceOf(member, 0);
}

/** The members of a stateless render body that are documents (each held to the 50 MB and depth rules). */
export const STATELESS_DOCUMENT_MEMBERS = ['template', 'data', 'translations'];

/** Spec 4.3: `template` and `data` (objects, required), `translations` (object, optional); each at most 50 MB. */
export function bindStatelessRenderBody(raw: Buffer, scan: JsonBodyScan): StatelessRenderBody {
  const members = rootMembers(raw, scan, STATELESS_DOCUMENT_MEMBERS);
  const template = requiredObject(members, 'template', 'the template DSL');
  const data = requiredObject(members, 'data', 'the document data');
  const translationsMember = members.get('translations');
  let translations: DocumentSlice | null = null;
  if (translationsMember !== undefined && translationsMember.kind !== 'null') {
    if (translationsMember.kind !== 'object') throw bindingError(`translations: must be a JSON object, got ${translationsMember.kind}`);
    translations = sliceOf(translationsMember, 0);
  }
  checkSize(data, 'data');
  checkSize(template, 'template');
  if (translations) checkSize(translations, 'translations');
  return { raw, template, data, translations };
}

/** The JSON text of a slice. */
export function textOf(raw: Buffer, slice: Pick<DocumentSlice, 'start' | 'end'>): string {
  return raw.toString('utf8', slice.start, slice.end);
}
