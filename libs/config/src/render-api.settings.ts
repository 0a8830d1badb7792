import { availableParallelism } from 'node:os';
import { ConfigOf, setting } from './setting';

const MIB = 1024 * 1024;

/**
 * Settings of the gateway's render endpoints (docs/api.md, Rendering a stored template, stateless and validating): how large a request body may be, how documents
 * travel to the render service, how many documents of one batch are in flight, how long past the render budget (RENDER_BUDGET_MS) a reply is waited for.
 */
export const renderApiSettings = {
  maxBodyBytes: setting.int(
    'RENDER_API_MAX_BODY_BYTES',
    'Largest render, validate, stateless or async enqueue request body in bytes, counted after decompression and held in memory once (docs/operations.md, "Memory per request"). A batch may be larger than the 50 MB per-document limit (each document is still held to it); a larger body gets 413 PayloadTooLarge as soon as the bytes pass it. Keep it well below the gateway\'s memory.',
    256 * MIB,
    { min: MIB, max: 2047 * MIB },
  ),
  inlineDataMaxBytes: setting.int(
    'RENDER_API_INLINE_DATA_MAX_BYTES',
    'Documents up to this many bytes of JSON travel inside the render message; larger ones are handed to the render service through the blob store.',
    256 * 1024,
    { min: 0, max: 64 * MIB },
  ),
  inlinePdfMaxBytes: setting.int(
    'RENDER_API_INLINE_PDF_MAX_BYTES',
    'When the gateway answers with the PDF itself (Accept: application/pdf, persist=false, includeDocument, stateless render), a PDF up to this many bytes comes back inside the render reply instead of being read back from the blob store; larger ones are read from the blob store. 0 always reads the blob store. The PDF is stored either way.',
    MIB,
    { min: 0, max: 8 * MIB },
  ),
  scanThreads: setting.int(
    'RENDER_API_SCAN_THREADS',
    'Worker threads that check large render bodies (JSON syntax, document sizes, nesting depth) off the event loop.',
    Math.max(1, Math.min(4, availableParallelism() - 1)),
    { min: 1, max: 64 },
  ),
  validationThreads: setting.int(
    'RENDER_API_VALIDATION_THREADS',
    'Worker threads that run the checks of the validate endpoint (docs/api.md#validating-documents), so validating a large document does not hold up other requests. Each holds the template DSL in memory.',
    1,
    { min: 1, max: 64 },
  ),
  validationHeapMb: setting.int(
    'RENDER_API_VALIDATION_HEAP_MB',
    'Heap (V8 old space, MB) each validation thread may use. Validating a batch that needs more ends with a RenderTimeout issue naming this setting, the thread is replaced, and other requests are not affected. Size the gateway\'s memory for RENDER_API_VALIDATION_THREADS of them.',
    1024,
    { min: 32, max: 16_384 },
  ),
  batchConcurrency: setting.int(
    'RENDER_API_BATCH_CONCURRENCY',
    'Documents of one synchronous batch sent to the render service at once (they render in parallel across render workers; as many as RENDER_BATCH_PRINT_MAX, so a batch can fill one shared print).',
    20,
    { min: 1, max: 1024 },
  ),
};

export type RenderApiSettings = ConfigOf<typeof renderApiSettings>;
