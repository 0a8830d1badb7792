import { bandVariants, pageBackgroundsOf, walkElements, watermarksOf } from '../model/template-walker';
import { PageBand, PageRole, Template } from '../model/template.types';

/** The entry for page `pageNumber` of `totalPages`: first beats last, last beats odd/even, those beat all. */
export function forPage<T>(entries: readonly T[], roleOf: (entry: T) => PageRole, pageNumber: number, totalPages: number): T | null {
  const wanted: PageRole[] = [];
  if (pageNumber === 1) wanted.push('first');
  if (pageNumber === totalPages) wanted.push('last');
  wanted.push(pageNumber % 2 === 1 ? 'odd' : 'even', 'all');
  for (const role of wanted) {
    const hit = entries.find((e) => roleOf(e) === role);
    if (hit !== undefined) return hit;
  }
  return null;
}

/** Whether the pages of this template differ from one another (see CompiledDocument.pageVariant). */
export function pagesDiffer(template: Template): boolean {
  const page = template.page;
  const roles = (band: PageBand | undefined): boolean => bandVariants(band).length > 1;
  if (roles(page?.header) || roles(page?.footer)) return true;
  const backgrounds = pageBackgroundsOf(page);
  if (backgrounds.length > 1 || backgrounds.some((b) => b.pages !== undefined && b.pages !== 'all' && b.pages !== 'first')) return true;
  if (watermarksOf(page).some((w) => (w.pages ?? 'all') !== 'all')) return true;
  let counted = false;
  walkElements(template, ({ element, region }) => {
    if (region !== 'body' && element.visibleIf !== undefined && PAGE_COUNTER_NAME.test(element.visibleIf)) counted = true;
  });
  return counted;
}

const PAGE_COUNTER_NAME = /\b(pageNumber|totalPages)\b/;


/** Indexes of entries whose page role an earlier entry already has (they are not used). */
export function repeatedRoles<T>(entries: readonly T[], roleOf: (entry: T) => PageRole): number[] {
  const seen = new Set<PageRole>();
  const out: number[] = [];
  entries.forEach((e, i) => {
    const role = roleOf(e);
    if (seen.has(role)) out.push(i);
    seen.add(role);
  });
  return out;
}
