import { DocumentCaps, Environment, hasBlockingIssue, renderIssue, RenderIssueType, type RenderIssue } from '@docrender/contracts';
import { bufferOf, type SharedBytes } from '@docrender/platform/workers';
import {
  BandFaceSubsets,
  compileDocument,
  type CompiledDocument,
  type CustomFontFile,
  type ImageResolution,
  imageReferencesOf,
  inspectData,
  InvalidTemplateError,
  type PageVariant,
  type Template,
} from '@docrender/template-dsl';
import { printedHtmlChars } from '../chromium/printed-size';
import { TemplateCache } from '../document/template-cache';
import { archiveDocument, type ArchivalStageOutcome } from '../pdf/archival-stage';
import type { EInvoiceFile } from '../pdf/factur-x-attachment';
import { invalidTemplateIssues } from './template-issues';

/**
 * A document's data as it travels to a compile thread: bytes read from the blob store in shared memory (not copied),
 * JSON text from the message, or a value (inline data, a preview's sample data; copied by structured clone).
 */
export type DocumentData = { bytes: SharedBytes } | { text: string } | { value: unknown };

/** What a compile thread compiles: everything CompileInput holds, as data that crosses threads. */
export type CompileRequest = {
  template: unknown;
  /** The template's digest when the sender computed it (RenderDocumentCommand.templateDigest). */
  templateDigest?: string;
  data: DocumentData;
  /** The data passed its checks in an earlier request for this document: it is only parsed again. */
  dataChecked: boolean;
  /** Issues that block in this environment end the compile (`blocked`). */
  environment: Environment;
  /**
   * The images the document references, resolved; null on the first request of a document, which answers `images`
   * with the references when there are any (the main thread fetches them, then asks again).
   */
  images: [string, ImageResolution][] | null;
  customFonts: CustomFontFile[];
  translations?: unknown;
  language?: string | null;
  watermark: string | null;
  documentNameTemplate?: string | null;
  fallbackDocumentName?: string;
  allowHttpImages: boolean;
  /** The pool's pages serve the built-in faces, and the bands' faces are subset (decision 0020). */
  servedFonts: boolean;
  /** When set: the page variants of the compiled document for this many pages (`variants`), not the document. */
  variantsFor?: number;
  /** Characters of HTML past which a document is not printed (RENDER_MAX_PRINTED_HTML_MB, at most DocumentCaps.maxPrintedHtmlChars). */
  maxPrintedChars: number;
};

/** A compiled document as it crosses threads: its page variants stay behind (`pagesDiffer`: ask with variantsFor). */
export type CompiledOnThread = Omit<CompiledDocument, 'pageVariant'> & { pagesDiffer: boolean };

/** The archival stage of a printed document (archiveDocument), run on a compile thread too: it parses the whole PDF. */
export type ArchiveRequest = {
  kind: 'archive';
  printed: Uint8Array;
  document: Pick<CompiledDocument, 'archival' | 'title'>;
  producer: string;
  /** Epoch milliseconds: the PDF's creation date. */
  created: number;
  /** The document's e-invoice XML to embed (archiveDocument), or null. */
  eInvoice: EInvoiceFile | null;
};

export type CompileReply =
  | { kind: 'blocked'; issues: RenderIssue[]; documentName: string | null }
  | { kind: 'images'; references: string[] }
  | { kind: 'compiled'; document: CompiledOnThread; warnings: string[] }
  | { kind: 'variants'; variants: PageVariant[] }
  | { kind: 'archived'; outcome: ArchivalStageOutcome };

/** What a compile thread is asked: a compile (or its page variants) or an archival stage. */
export type ThreadRequest = CompileRequest | ArchiveRequest;

const megabytes = (chars: number): string => (chars / 1_000_000).toFixed(1);

/**
 * The issue of a document whose layout is larger than the service prints: past DocumentCaps.maxPrintedHtmlChars it
 * would not print within the render budget; an operator may set less (RENDER_MAX_PRINTED_HTML_MB) to bound the memory
 * Chromium takes while it prints.
 */
function tooLargeToPrint(printed: number, maxPrintedChars: number): RenderIssue {
  const why =
    maxPrintedChars < DocumentCaps.maxPrintedHtmlChars
      ? `the ${megabytes(maxPrintedChars)} MB this service prints (RENDER_MAX_PRINTED_HTML_MB, which bounds Chromium's memory while it prints)`
      : `the ${megabytes(maxPrintedChars)} MB that print within the render budget`;
  return renderIssue(
    RenderIssueType.RenderTimeout,
    `Not printed: the document's layout is ${megabytes(printed)} MB of HTML, more than ${why}; split the data into several documents (docs/template-dsl.md, Document caps).`,
  );
}

/** Distinct templates whose prepared form a compile thread keeps between documents. */
const TEMPLATES_KEPT = 64;

function dataOf(data: DocumentData): unknown {
  if ('bytes' in data) return bufferOf(data.bytes).toString('utf8');
  if ('text' in data) return data.text;
  return data.value;
}

/**
 * The compiling of documents, as one compile thread runs it (compile.worker.ts): data checks, image references,
 * compile, page variants — everything CPU-heavy of a document. Keeps what the thread learns across documents: the
 * prepared form of each template (TemplateCache) and the bands' face subsets (BandFaceSubsets).
 */
export class CompileTask {
  private readonly templates = new TemplateCache(TEMPLATES_KEPT);
  private readonly warnings: string[] = [];
  private readonly bandFaceSubsets = new BandFaceSubsets((file, error) =>
    this.warnings.push(`the band face ${file} could not be subset (bands printing its characters keep the whole face): ${error instanceof Error ? error.message : String(error)}`),
  );

  run(request: ThreadRequest): CompileReply | Promise<CompileReply> {
    if ('kind' in request) {
      const { printed, document, producer, created, eInvoice } = request;
      // the XML crossed the thread as a Uint8Array
      const xml = eInvoice === null ? null : { ...eInvoice, xml: Buffer.from(eInvoice.xml.buffer, eInvoice.xml.byteOffset, eInvoice.xml.byteLength) };
      return archiveDocument(Buffer.from(printed.buffer, printed.byteOffset, printed.byteLength), document, producer, new Date(created), xml).then((outcome) => ({
        kind: 'archived' as const,
        outcome,
      }));
    }
    return this.compile(request);
  }

  private compile(request: CompileRequest): CompileReply {
    const raw = dataOf(request.data);
    let data: unknown;
    if (request.dataChecked) {
      data = typeof raw === 'string' ? JSON.parse(raw) : raw;
    } else {
      // the check parses JSON text once and hands back the value it walked
      const inspection = inspectData(raw);
      if (hasBlockingIssue(inspection.issues, request.environment)) return { kind: 'blocked', issues: inspection.issues, documentName: null };
      data = inspection.value;
    }
    const template = this.templates.canonical(request.template, request.templateDigest) as Template;
    try {
      if (request.images === null) {
        const references = imageReferencesOf(template, data, { allowHttpImages: request.allowHttpImages });
        if (references.length > 0) return { kind: 'images', references };
      }
      const { pageVariant, ...document } = compileDocument({
        template,
        data,
        translations: request.translations,
        language: request.language,
        watermark: request.watermark,
        images: new Map(request.images ?? []),
        customFonts: request.customFonts,
        documentNameTemplate: request.documentNameTemplate,
        fallbackDocumentName: request.fallbackDocumentName,
        allowHttpImages: request.allowHttpImages,
        ...(request.servedFonts ? { builtinFonts: 'served' as const, bandFaceSubsets: this.bandFaceSubsets } : {}),
      });
      if (request.variantsFor !== undefined) {
        const totalPages = request.variantsFor;
        if (pageVariant === null) throw new Error('variants asked for a document whose pages print alike');
        return { kind: 'variants', variants: Array.from({ length: totalPages }, (_, i) => pageVariant(i + 1, totalPages)) };
      }
      if (hasBlockingIssue(document.issues, request.environment)) return { kind: 'blocked', issues: document.issues, documentName: document.documentName };
      const printed = printedHtmlChars(document);
      if (printed > request.maxPrintedChars) {
        return { kind: 'blocked', issues: [...document.issues, tooLargeToPrint(printed, request.maxPrintedChars)], documentName: document.documentName };
      }
      return { kind: 'compiled', document: { ...document, pagesDiffer: pageVariant !== null }, warnings: this.warnings.splice(0) };
    } catch (error) {
      if (error instanceof InvalidTemplateError) return { kind: 'blocked', issues: invalidTemplateIssues(request.template, error.errors), documentName: null };
      throw error;
    }
  }
}
