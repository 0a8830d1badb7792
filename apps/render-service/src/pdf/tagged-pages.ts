import { PDFArray, PDFDict, type PDFDocument, PDFHexString, PDFName, PDFNull, PDFNumber, type PDFObject, PDFObjectCopier, PDFPage, PDFPageLeaf, PDFRef, PDFString } from '@cantoo/pdf-lib';

const name = (key: string): PDFName => PDFName.of(key);
const K = name('K');
const P = name('P');
const PG = name('Pg');
const TYPE = name('Type');

/** The catalog entries of a tagged print that go with its structure tree (ISO 32000-1 14.7, 14.9.2; the viewer's title). */
const TAGGED_CATALOG_ENTRIES = ['MarkInfo', 'Lang', 'ViewerPreferences'];

/**
 * One document's pages out of a tagged print of several (a batch print), copied into `own` with the document's part
 * of the structure tree, as its own print alone would have it: the print's `Document` element (its language and
 * attributes) holding the children of the document's block, every element with its marked content on the copied
 * pages, its link annotations and its IDs, the parent tree for those pages and annotations, and the catalog's
 * /MarkInfo, /Lang and /ViewerPreferences.
 *
 * `block`: the document's place among the print's top-level blocks (its block is the `index`-th child of the
 * `Document` element) and the link annotation that marks it (a child of the block holds it). `isMarkerLink`:
 * annotations the caller takes out afterwards (marker links); link elements holding only such links are left out of
 * the tree. The pages are copied but not added (the caller adds them in order).
 *
 * Null when the print is not shaped so: no structure tree, a block that is not an element or does not hold its marker,
 * an element of the block with content on another document's page, or marked content or an annotation on the copied
 * pages whose element is not in the block.
 */
export function copyTaggedPages(
  own: PDFDocument,
  print: PDFDocument,
  pageIndices: number[],
  block: { index: number; isMarker: (annotation: PDFDict) => boolean },
  isMarkerLink: (annotation: PDFDict) => boolean,
): PDFPage[] | null {
  const source = print.context;
  const root = print.catalog.lookupMaybe(name('StructTreeRoot'), PDFDict);
  const documentElement = root === undefined ? undefined : elementAt(source.lookup(root.get(K)));
  const blockRef = documentElement === undefined ? undefined : kidsOf(documentElement.get(K))[block.index];
  if (root === undefined || documentElement === undefined || !(blockRef instanceof PDFRef)) return null;

  // the pages first, by reference: the elements' and marked-content references' /Pg then map onto the copies
  const copier = PDFObjectCopier.for(source, own.context);
  const sourcePages = print.getPages();
  const ownPages = new Set(pageIndices.map((index) => sourcePages[index].ref));
  const pages = pageIndices.map((index) => {
    const ref = copier.copy(sourcePages[index].ref);
    const leaf = own.context.lookup(ref);
    if (!(leaf instanceof PDFPageLeaf)) throw new Error(`page ${index + 1} of the print did not copy as a page`);
    return PDFPage.of(leaf, ref, own);
  });
  const onOwnPage = (value: PDFObject | undefined): boolean => value === undefined || (value instanceof PDFRef && ownPages.has(value));

  const elements = new Map<PDFRef, PDFRef>();
  const ids: { id: PDFString | PDFHexString; ref: PDFRef }[] = [];
  let foreign = false;
  /** The copied kids of an element, under `parent`; a link holding only marker links has none left. */
  const copyKids = (kids: PDFObject[], parent: PDFRef): PDFObject[] => {
    const copied: PDFObject[] = [];
    for (const kid of kids) {
      if (kid instanceof PDFNumber) {
        copied.push(kid);
        continue;
      }
      const dict = source.lookup(kid);
      if (!(dict instanceof PDFDict)) continue;
      const type = dict.lookup(TYPE);
      if (type === name('OBJR')) {
        const annotation = dict.lookupMaybe(name('Obj'), PDFDict);
        if (annotation !== undefined && isMarkerLink(annotation)) continue;
        if (!onOwnPage(dict.get(PG))) foreign = true;
        copied.push(copier.copy(kid));
      } else if (type === name('MCR')) {
        if (!onOwnPage(dict.get(PG))) foreign = true;
        copied.push(copier.copy(kid));
      } else if (kid instanceof PDFRef) {
        const element = copyElement(kid, dict, parent);
        if (element !== null) copied.push(element);
      }
    }
    return copied;
  };
  const copyElement = (sourceRef: PDFRef, element: PDFDict, parent: PDFRef): PDFRef | null => {
    const ref = own.context.nextRef();
    const kids = kidsOf(element.get(K));
    const copiedKids = copyKids(kids, ref);
    if (kids.length > 0 && copiedKids.length === 0) return null;
    if (!onOwnPage(element.get(PG))) foreign = true;
    const copy = own.context.obj({});
    for (const [key, value] of element.entries()) if (key !== P && key !== K) copy.set(key, copier.copy(value));
    copy.set(P, parent);
    if (copiedKids.length > 0) copy.set(K, copiedKids.length === 1 && !(element.get(K) instanceof PDFArray) ? copiedKids[0] : own.context.obj(copiedKids));
    own.context.assign(ref, copy);
    elements.set(sourceRef, ref);
    const id = element.lookup(name('ID'));
    if (id instanceof PDFString || id instanceof PDFHexString) ids.push({ id, ref });
    return ref;
  };

  // the document's own Document element holds its block's children, as the body's children are held alone
  const documentRef = own.context.nextRef();
  const blockKids = kidsOf(source.lookup(blockRef, PDFDict).get(K));
  if (blockKids.some((kid) => kid instanceof PDFNumber) || !blockKids.some((kid) => holdsLink(print, kid, block.isMarker))) return null;
  const documentKids = copyKids(blockKids, documentRef);
  const rootRef = own.context.nextRef();
  const documentCopy = own.context.obj({});
  for (const [key, value] of documentElement.entries()) if (key !== P && key !== K) documentCopy.set(key, copier.copy(value));
  documentCopy.set(P, rootRef);
  documentCopy.set(K, own.context.obj(documentKids));
  own.context.assign(documentRef, documentCopy);
  if (foreign) return null;

  // the parent tree: each page's marked content and each annotation to its element (ISO 32000-1 14.7.4.4)
  const parents = numberTree(print, root.lookupMaybe(name('ParentTree'), PDFDict));
  const entries: [number, PDFObject][] = [];
  const mapped = (ref: PDFObject): PDFObject | null => (ref === PDFNull ? PDFNull : ref instanceof PDFRef ? (elements.get(ref) ?? null) : null);
  for (const index of pageIndices) {
    const node = sourcePages[index].node;
    const key = node.lookupMaybe(name('StructParents'), PDFNumber)?.asNumber();
    const marked = key === undefined ? undefined : source.lookup(parents.get(key));
    if (key !== undefined && marked instanceof PDFArray) {
      const parentsOfContent = marked.asArray().map(mapped);
      if (parentsOfContent.some((parent) => parent === null)) return null;
      entries.push([key, own.context.obj(parentsOfContent as PDFObject[])]);
    }
    const annotations = node.Annots();
    for (let i = 0; i < (annotations?.size() ?? 0); i++) {
      const annotation = annotations?.lookupMaybe(i, PDFDict);
      const annotationKey = annotation?.lookupMaybe(name('StructParent'), PDFNumber)?.asNumber();
      if (annotation === undefined || annotationKey === undefined || isMarkerLink(annotation)) continue;
      const element = parents.get(annotationKey);
      const parent = element === undefined ? null : mapped(element);
      if (parent === null) return null;
      entries.push([annotationKey, parent]);
    }
  }
  entries.sort(([a], [b]) => a - b);
  const tree = own.context.obj({
    Type: 'StructTreeRoot',
    K: documentRef,
    ParentTree: own.context.obj({ Nums: own.context.obj(entries.flat()) }),
    ParentTreeNextKey: (entries.at(-1)?.[0] ?? -1) + 1,
  });
  if (ids.length > 0) {
    ids.sort((a, b) => (a.id.decodeText() < b.id.decodeText() ? -1 : a.id.decodeText() > b.id.decodeText() ? 1 : 0));
    tree.set(name('IDTree'), own.context.obj({ Names: own.context.obj(ids.flatMap(({ id, ref }) => [id, ref])) }));
  }
  for (const key of ['RoleMap', 'ClassMap']) {
    const value = root.get(name(key));
    if (value !== undefined) tree.set(name(key), copier.copy(value));
  }
  own.context.assign(rootRef, tree);
  own.catalog.set(name('StructTreeRoot'), rootRef);
  for (const key of TAGGED_CATALOG_ENTRIES) {
    const value = print.catalog.get(name(key));
    if (value !== undefined) own.catalog.set(name(key), copier.copy(value));
  }
  return pages;
}

/** The kids of a structure element's /K as a list (one kid or an array of them). */
function kidsOf(k: PDFObject | undefined): PDFObject[] {
  if (k === undefined) return [];
  return k instanceof PDFArray ? k.asArray() : [k];
}

/** Whether `kid` is a structure element holding a link annotation that `is`. */
function holdsLink(print: PDFDocument, kid: PDFObject, is: (annotation: PDFDict) => boolean): boolean {
  const element = print.context.lookup(kid);
  if (!(element instanceof PDFDict)) return false;
  return kidsOf(element.get(K)).some((k) => {
    const reference = print.context.lookup(k);
    const annotation = reference instanceof PDFDict && reference.lookup(TYPE) === name('OBJR') ? reference.lookupMaybe(name('Obj'), PDFDict) : undefined;
    return annotation !== undefined && is(annotation);
  });
}

/** The root's single `Document` element (its /K), or undefined. */
function elementAt(k: PDFObject | undefined): PDFDict | undefined {
  return k instanceof PDFDict && k.get(name('S')) !== undefined ? k : undefined;
}

/** The entries of a number tree (ISO 32000-1 7.9.7), leaves and intermediate nodes alike. */
function numberTree(print: PDFDocument, node: PDFDict | undefined, entries = new Map<number, PDFObject>()): Map<number, PDFObject> {
  if (node === undefined) return entries;
  const nums = node.lookupMaybe(name('Nums'), PDFArray);
  for (let i = 0; nums !== undefined && i + 1 < nums.size(); i += 2) {
    const key = nums.lookupMaybe(i, PDFNumber);
    if (key !== undefined) entries.set(key.asNumber(), nums.get(i + 1));
  }
  const kids = node.lookupMaybe(name('Kids'), PDFArray);
  for (let i = 0; kids !== undefined && i < kids.size(); i++) numberTree(print, kids.lookupMaybe(i, PDFDict), entries);
  return entries;
}
