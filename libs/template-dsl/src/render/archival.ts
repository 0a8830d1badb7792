import { RenderIssueType } from '@docrender/contracts';
import { BindingEnvironment, renderPlainText } from '../binding/binding-evaluator';
import { Scope } from '../binding/scope';
import { IssueCollector } from '../issues/issue-collector';
import { AttachmentRelationship, PdfALevel, PdfUALevel, Template } from '../model/template.types';
import type { CompileContext } from './compile-context';
import { segmentsOf } from './prepared-template';

/** Limits of attachments (docs/template-dsl.md, "Metadata and attachments"). */
export const ATTACHMENT_LIMITS = {
  /** Decoded bytes of one attachment. */
  maxBytes: 10 * 1024 * 1024,
  /** Decoded bytes of all attachments of a document. */
  maxTotalBytes: 20 * 1024 * 1024,
  maxNameChars: 200,
} as const;

/** An attachment of a compiled document, decoded and checked. */
export interface CompiledAttachment {
  id: string;
  name: string;
  mimeType: string;
  description: string | null;
  relationship: AttachmentRelationship;
  bytes: Uint8Array;
}

/** What the PDF post-processing stage writes besides the title: PDF/A level, PDF/UA part, metadata, attachments. */
export interface ArchivalOutput {
  pdfA: PdfALevel | null;
  /** The PDF/UA part the output claims (tagged, with its own checks), or null. */
  pdfUA: PdfUALevel | null;
  author: string | null;
  subject: string | null;
  keywords: string | null;
  /** The template's creator; null means the service. */
  creator: string | null;
  /** BCP 47 language of the document (the locale it is formatted in). */
  language: string;
  attachments: CompiledAttachment[];
}

const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;
/** Base64 characters and up to two padding characters (one character class: linear, no backtracking on megabytes). */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The template's `pdfA`, `metadata` and `attachments` with their bindings evaluated. An attachment's bytes come from
 * the data (`content`, Base64) or from an organisation asset (`asset`, read by the caller: `files`). One whose content
 * is not Base64, is empty (unless `optional`), too large, whose asset cannot be read, or whose name or MIME type is
 * unusable is left out with a SchemaInvalid issue naming it (an Error: the document is not produced without a file it
 * promised).
 */
export function resolveArchival(
  template: Template,
  scope: Scope,
  env: BindingEnvironment,
  issues: IssueCollector,
  usable: boolean,
  files: Pick<CompileContext, 'attachmentAsset'>,
): ArchivalOutput {
  const text = (value: string | undefined, elementId: string | null): string | null => {
    if (value === undefined || !usable) return null;
    const out = renderPlainText(segmentsOf(value), scope, env, elementId).trim();
    return out === '' ? null : out;
  };
  const metadata = template.metadata ?? {};
  const attachments: CompiledAttachment[] = [];
  let total = 0;
  const names = new Set<string>();
  for (const attachment of usable ? (template.attachments ?? []) : []) {
    const id = attachment.id;
    const refuse = (why: string) => issues.add(RenderIssueType.SchemaInvalid, `The attachment is left out: ${why}.`, id);
    const assetName = attachment.asset === undefined ? null : text(attachment.asset, id);
    const content = attachment.asset === undefined ? (text(attachment.content, id) ?? '').replace(/\s+/g, '') : '';
    if (assetName === null && content === '') {
      if (attachment.optional !== true) refuse(`its ${attachment.asset === undefined ? 'content' : 'asset name'} is empty (mark it "optional" when the data may have no file)`);
      continue;
    }
    const name = text(attachment.name, id);
    const mimeType = text(attachment.mimeType, id);
    if (name === null || name.length > ATTACHMENT_LIMITS.maxNameChars || /[\\/\x00-\x1f\x7f]/.test(name)) {
      refuse(`its name must be 1 to ${ATTACHMENT_LIMITS.maxNameChars} characters without slashes or control characters`);
      continue;
    }
    if (names.has(name)) {
      refuse(`another attachment is already named "${name}"`);
      continue;
    }
    if (mimeType === null || !MIME_TYPE.test(mimeType)) {
      refuse(`"${mimeType ?? ''}" is not a MIME type`);
      continue;
    }
    let bytes: Uint8Array | null = null;
    if (assetName !== null) {
      const file = files.attachmentAsset(assetName);
      if (file === 'pending') continue;
      if ('error' in file) {
        refuse(file.error);
        continue;
      }
      bytes = file.bytes;
    }
    const size = bytes?.length ?? Math.floor((content.length * 3) / 4) - (content.endsWith('==') ? 2 : content.endsWith('=') ? 1 : 0);
    if (size > ATTACHMENT_LIMITS.maxBytes) {
      refuse(`it has ${size} bytes, more than the ${ATTACHMENT_LIMITS.maxBytes} an attachment may have`);
      continue;
    }
    if (total + size > ATTACHMENT_LIMITS.maxTotalBytes) {
      refuse(`the document's attachments would have more than ${ATTACHMENT_LIMITS.maxTotalBytes} bytes together`);
      continue;
    }
    if (bytes === null && (content.length % 4 !== 0 || !BASE64.test(content))) {
      refuse('its content is not Base64');
      continue;
    }
    total += size;
    names.add(name);
    attachments.push({
      id,
      name,
      mimeType,
      description: text(attachment.description, id),
      relationship: attachment.relationship ?? 'Unspecified',
      bytes: bytes ?? new Uint8Array(Buffer.from(content, 'base64')),
    });
  }
  return {
    pdfA: template.pdfA ?? null,
    pdfUA: template.pdfUA ?? null,
    author: text(metadata.author, null),
    subject: text(metadata.subject, null),
    keywords: text(metadata.keywords, null),
    creator: text(metadata.creator, null),
    language: env.settings.locale,
    attachments,
  };
}
