/**
 * Memory a render-service pod needs besides its compile threads: the main thread and Chromium with two pages at the
 * image caps (docs/operations.md, "Compile threads"); and each compile thread's code and caches (RSS measured after
 * compiling the invoice), on top of its RENDER_COMPILE_HEAP_MB at worst.
 */
export const RENDER_SERVICE_BASE_MIB = 1536;
export const COMPILE_THREAD_BASE_MIB = 130;

/**
 * Chromium's memory while it prints a long document, per MB of its HTML (RENDER_MAX_PRINTED_HTML_MB): `npm run
 * bench:long` measured 1.1 GB PSS at 0.9 MB (3,000 rows) and 4.8 GB at 2.8 MB (10,000 rows), 1.2 and 1.7 GB per MB.
 * The pool prints one long document at a time (printed-size.ts), so a pod needs this once, not once per page.
 */
export const LONG_PRINT_MIB_PER_HTML_MB = 1792;

/** The memory limit a render-service container needs (docs/operations.md, "Compile threads"). */
export function renderServiceMemoryMib(settings: { compileThreads: number; compileHeapMb: number; maxPrintedHtmlMb: number }): number {
  return RENDER_SERVICE_BASE_MIB + settings.compileThreads * (COMPILE_THREAD_BASE_MIB + settings.compileHeapMb) + LONG_PRINT_MIB_PER_HTML_MB * settings.maxPrintedHtmlMb;
}

/** A Kubernetes quantity of CPUs ("2", "500m") or bytes ("4Gi", "512Mi", "1G") as a number (cores, MiB). */
export function quantity(value: string | number | undefined, unit: 'cpu' | 'MiB'): number {
  const match = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(String(value ?? ''));
  if (!match) throw new Error(`not a ${unit} quantity: ${value}`);
  const n = Number(match[1]);
  if (unit === 'cpu') return match[2] === 'm' ? n / 1000 : match[2] === undefined ? n : Number.NaN;
  const factor: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, k: 1e3, M: 1e6, G: 1e9, T: 1e12 };
  return (n * (match[2] === undefined || match[2] === 'm' ? 1 : factor[match[2]])) / 2 ** 20;
}
