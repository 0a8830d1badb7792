import { readFileSync } from 'node:fs';
import { PLAIN_PDF_CONFORMANCE, renderIssue, RenderIssue, RenderIssueType, type DocumentConformance } from '@docrender/contracts';
import type { CompiledDocument } from '@docrender/template-dsl';
import { makeArchivalPdf, OutputIntentProfile } from './archival-pdf';
import { facturXAttachment, type EInvoiceFile } from './factur-x-attachment';
import { ARCHIVAL_RULES } from './pdf-a-checks';
import { PDF_UA_RULES } from './pdf-ua-checks';

/** The sRGB profile of Debian's icc-profiles-free (installed by .ci/run and the Dockerfile). */
export const SRGB_PROFILE_PATH = '/usr/share/color/icc/sRGB.icc';

let srgb: OutputIntentProfile | null = null;

/** The sRGB output intent profile, read once. Throws when the file is missing (a render then fails with its reason). */
export function srgbOutputIntent(path = SRGB_PROFILE_PATH): OutputIntentProfile {
  if (srgb === null) {
    let icc: Buffer;
    try {
      icc = readFileSync(path);
    } catch (error) {
      throw new Error(`the sRGB ICC profile ${path} (Debian package icc-profiles-free) cannot be read: ${(error as Error).message}`);
    }
    srgb = { icc: new Uint8Array(icc), identifier: 'sRGB IEC61966-2.1' };
  }
  return srgb;
}

/** What a document asked of conformance and what came of it, when it asked for nothing. */
export const NO_CONFORMANCE: DocumentConformance = PLAIN_PDF_CONFORMANCE;

/** The document needs the archival stage: a PDF/A level, PDF/UA, metadata beyond the title, or attachments. */
export function needsArchivalStage(archival: CompiledDocument['archival']): boolean {
  return (
    archival.pdfA !== null ||
    archival.pdfUA !== null ||
    archival.attachments.length > 0 ||
    archival.author !== null ||
    archival.subject !== null ||
    archival.keywords !== null ||
    archival.creator !== null
  );
}

export type ArchivalStageOutcome = { pdf: Buffer; conformance: DocumentConformance } | { pdf: null; issues: RenderIssue[] };

/**
 * Runs the archival post-processing stage on a printed PDF (makeArchivalPdf) for a compiled document. A document
 * whose output fails one of the service's own checks gets one SchemaInvalid issue per failed rule, naming it, and
 * no PDF (decision 0032).
 *
 * `eInvoice`: the document's e-invoice XML (built and validated by @docrender/e-invoice), embedded beside the
 * template's attachments with the Factur-X XMP extension schema (facturXAttachment); the document must ask for
 * PDF/A-3b or PDF/A-3u, otherwise it gets an issue and no PDF.
 */
export async function archiveDocument(
  printed: Buffer,
  document: Pick<CompiledDocument, 'archival' | 'title'>,
  producer: string,
  now = new Date(),
  eInvoice: EInvoiceFile | null = null,
): Promise<ArchivalStageOutcome> {
  const { archival } = document;
  if (eInvoice !== null && archival.pdfA !== 'PDF/A-3b' && archival.pdfA !== 'PDF/A-3u') {
    const message = `Not rendered: an e-invoice (${eInvoice.fileName}) is a PDF/A-3 file; the template asks for ${archival.pdfA ?? 'no PDF/A level'}: set "pdfA" to PDF/A-3b or PDF/A-3u.`;
    return { pdf: null, issues: [renderIssue(RenderIssueType.SchemaInvalid, message)] };
  }
  const invoice = eInvoice === null ? null : facturXAttachment(eInvoice);
  const outcome = await makeArchivalPdf(printed, {
    level: archival.pdfA,
    pdfUA: archival.pdfUA,
    info: {
      title: document.title,
      author: archival.author,
      subject: archival.subject,
      keywords: archival.keywords,
      creator: archival.creator ?? producer,
      producer,
      language: archival.language,
      created: now,
    },
    attachments: invoice === null ? archival.attachments : [...archival.attachments, invoice.attachment],
    xmpExtensions: invoice === null ? [] : [invoice.xmpExtension],
    outputIntent: archival.pdfA === null ? { icc: new Uint8Array(), identifier: '' } : srgbOutputIntent(),
  });
  if (!outcome.conformant) {
    const claimed = [archival.pdfA, archival.pdfUA].filter((claim) => claim !== null);
    const claim = claimed.length === 0 ? 'archival PDF' : claimed.join(' + ');
    return {
      pdf: null,
      issues: outcome.failures.map((failure) =>
        renderIssue(
          RenderIssueType.SchemaInvalid,
          `Not rendered: the ${claim} output fails rule ${failure.rule} (${ARCHIVAL_RULES[failure.rule] ?? PDF_UA_RULES[failure.rule]}) of the service's own checks: ${failure.message}.`,
        ),
      ),
    };
  }
  return {
    pdf: outcome.pdf,
    conformance: {
      pdfA: archival.pdfA,
      pdfUA: archival.pdfUA,
      checks: archival.pdfA === null && archival.pdfUA === null ? 'none' : 'passed',
      rules: archival.pdfA === null && archival.pdfUA === null ? [] : outcome.checked,
      eInvoice: eInvoice === null ? null : eInvoice.profile,
    },
  };
}
