/**
 * The added cost of archival output (issue 34): the invoice example rendered by the render service in-process as a
 * plain PDF and as PDF/A-3b (same template plus `pdfA`, metadata with bindings and one 2 KB attachment from the
 * data), interleaved in rounds (plain, archival, plain, …), one document at a time; then the archival stage alone
 * (pdf-lib load, XMP, output intent, attachment, save, own checks) on a printed invoice, on this thread; then what an
 * e-invoice adds (examples/e-invoice): its compile with the eInvoice mapping (the XML built and checked against the
 * profile's rules) against the same template without it, and the archival stage with its XML embedded against
 * without. A script, not a test: prints figures, asserts nothing.
 *
 *   node tools/build.mjs && node dist/bench/pdfa/pdfa.bench.js
 *
 * Environment: BENCH_ROUNDS (default 3), BENCH_INVOICES (documents per run, default 30). Quick mode:
 * BENCH_ROUNDS=2 BENCH_INVOICES=15.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadSettings, messagingSettings } from '@docrender/config';
import { Environment, MessageName, type RenderDocumentCommand } from '@docrender/contracts';
import { InProcessMessageBus } from '@docrender/messaging';
import { JsonLogger } from '@docrender/observability';
import { createServiceApp, serviceSettings } from '@docrender/platform';
import { archiveDocument, eInvoiceFileOf, renderService } from '@docrender/render-service';
import { FilesystemBlobStore } from '@docrender/storage';
import { compileDocument, type Template } from '@docrender/template-dsl';
import { closedLoop, loadExample, median, repositoryRoot } from '../shared/bench-kit';
import { runBench } from '../shared/run-bench';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const INVOICES = Number(process.env.BENCH_INVOICES ?? 30);
const quiet = new JsonLogger('bench-pdfa', 'error', {}, () => undefined);

async function main(): Promise<void> {
  const invoice = loadExample(repositoryRoot(), 'invoice');
  const plain = { template: invoice.template, data: invoice.data };
  const archival = {
    template: {
      ...(invoice.template as Template),
      pdfA: 'PDF/A-3b',
      metadata: { author: '{{ seller.name }}', subject: 'Invoice {{ number }}', keywords: 'invoice, {{ number }}' },
      attachments: [{ id: 'terms-file', name: 'terms.txt', mimeType: 'text/plain', relationship: 'Supplement', content: '{{ files.terms }}' }],
    },
    data: { ...(invoice.data as Record<string, unknown>), files: { terms: Buffer.alloc(2048, 'terms ').toString('base64') } },
  };
  const blobDir = await mkdtemp(path.join(tmpdir(), 'docrender-bench-pdfa-'));
  const blobStore = await FilesystemBlobStore.open(blobDir);
  const bus = new InProcessMessageBus(loadSettings(messagingSettings, {}), quiet);
  const settings = serviceSettings([renderService], { RENDER_BROWSERS: '1', RENDER_PAGES_PER_BROWSER: '1' });
  const app = await createServiceApp(renderService, { bus, blobStore, close: () => bus.close() }, quiet, settings);
  await app.init();
  let lastPdfKey = '';
  const render = async (variant: { template: unknown; data: unknown }): Promise<void> => {
    const command: RenderDocumentCommand = {
      requestId: randomUUID(),
      organisationId: '00000000-0000-4000-8000-00000000bench',
      environment: Environment.Production,
      template: variant.template,
      data: { inline: variant.data },
      translations: null,
      language: null,
      documentNameTemplate: null,
      fallbackDocumentName: 'invoice',
      customFonts: [],
      outputBlobKey: `bench/${randomUUID()}.pdf`,
      deadline: Date.now() + 60_000,
    };
    const result = await bus.request(MessageName.RenderDocument, command, { timeoutMs: 60_000 });
    if (result.outcome !== 'rendered') throw new Error(`not rendered: ${JSON.stringify(result.issues)}`);
    if (variant === plain) lastPdfKey = command.outputBlobKey;
  };
  try {
    for (let i = 0; i < 5; i++) await Promise.all([render(plain), render(archival)]);
    const ms: Record<'plain' | 'archival', number[]> = { plain: [], archival: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, variant] of [['plain', plain], ['archival', archival]] as const) {
        const run = await closedLoop(INVOICES, 1, () => render(variant));
        ms[name].push(median(run.latenciesMs));
      }
    }
    const plainMs = median(ms.plain);
    const archivalMs = median(ms.archival);
    console.log(`invoice, one at a time, ${ROUNDS} rounds × ${INVOICES} documents (median of the runs' median latencies)`);
    console.log(`  plain PDF:  ${plainMs.toFixed(1)} ms per document`);
    console.log(`  PDF/A-3b:   ${archivalMs.toFixed(1)} ms per document (+${(archivalMs - plainMs).toFixed(1)} ms, +${((archivalMs / plainMs - 1) * 100).toFixed(0)} %)`);
  } catch (error) {
    await rm(blobDir, { recursive: true, force: true });
    throw error;
  } finally {
    await app.close();
    await bus.close();
  }
  // the stage alone, once the service (its browser pool and compile threads) is closed, after a warm-up
  try {
    const printed = await blobStore.get(lastPdfKey);
    const compiled = compileDocument({ template: archival.template as Template, data: archival.data });
    for (let i = 0; i < 10; i++) await archiveDocument(printed, compiled, 'docrender render-service (bench)');
    const stageMs: number[] = [];
    const cpuBefore = process.cpuUsage();
    const stageRuns = INVOICES * 2;
    for (let i = 0; i < stageRuns; i++) {
      const started = process.hrtime.bigint();
      const outcome = await archiveDocument(printed, compiled, 'docrender render-service (bench)');
      stageMs.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (outcome.pdf === null) throw new Error(JSON.stringify(outcome.issues));
    }
    const cpu = process.cpuUsage(cpuBefore);
    console.log(
      `  archival stage alone on a printed invoice (${printed.length} bytes): median ${median(stageMs).toFixed(1)} ms wall, ` +
        `${((cpu.user + cpu.system) / 1000 / stageRuns).toFixed(1)} ms CPU per document`,
    );
    await eInvoiceCost(printed);
  } finally {
    await rm(blobDir, { recursive: true, force: true });
  }
}

/** CPU milliseconds per call of `work`, over `runs` calls after 10 to warm up. */
async function cpuMsPerCall(runs: number, work: () => unknown): Promise<number> {
  for (let i = 0; i < 10; i++) await work();
  const before = process.cpuUsage();
  for (let i = 0; i < runs; i++) await work();
  const cpu = process.cpuUsage(before);
  return (cpu.user + cpu.system) / 1000 / runs;
}

/** What an e-invoice adds to a document: its XML built and checked at compile, and embedded by the archival stage. */
async function eInvoiceCost(printed: Buffer): Promise<void> {
  const example = loadExample(repositoryRoot(), 'e-invoice');
  const withXml = example.template as Template;
  const { eInvoice: _mapping, ...withoutXml } = withXml;
  const runs = INVOICES * 2;
  const compileWith = await cpuMsPerCall(runs, () => compileDocument({ template: withXml, data: example.data }));
  const compileWithout = await cpuMsPerCall(runs, () => compileDocument({ template: withoutXml, data: example.data }));
  const compiled = compileDocument({ template: withXml, data: example.data });
  const file = eInvoiceFileOf(compiled.eInvoice);
  if (file === null) throw new Error('examples/e-invoice compiled without its e-invoice');
  const archiveWith = await cpuMsPerCall(runs, () => archiveDocument(printed, compiled, 'docrender render-service (bench)', new Date(), file));
  const archiveWithout = await cpuMsPerCall(runs, () => archiveDocument(printed, compiled, 'docrender render-service (bench)'));
  console.log(`examples/e-invoice (${file.profile}, ${file.xml.length} bytes of XML), CPU per document:`);
  console.log(`  compile with its XML built and checked ${compileWith.toFixed(2)} ms, without ${compileWithout.toFixed(2)} ms: +${(compileWith - compileWithout).toFixed(2)} ms`);
  console.log(`  archival stage with the XML embedded ${archiveWith.toFixed(2)} ms, without ${archiveWithout.toFixed(2)} ms: +${(archiveWith - archiveWithout).toFixed(2)} ms`);
}

runBench(main);
