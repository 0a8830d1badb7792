import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, type PDFObject, PDFRawStream, PDFRef } from '@cantoo/pdf-lib';

const name = (key: string): PDFName => PDFName.of(key);

/**
 * What a reader that goes from content to structure (a screen reader following the text, ISO 32000-1 14.7.4.4) would
 * find wrong in a tagged PDF, read back with pdf-lib: marked content whose parent-tree entry is missing or names an
 * element that does not hold it on that page, annotations whose entry names an element that does not hold them, and
 * elements whose /P is not the element holding them. Empty when the parent tree and the tree agree.
 */
export async function parentTreeProblems(pdf: Buffer): Promise<string[]> {
  const document = await PDFDocument.load(pdf, { updateMetadata: false });
  const context = document.context;
  const problems: string[] = [];
  const root = document.catalog.lookupMaybe(name('StructTreeRoot'), PDFDict);
  if (root === undefined) return ['no structure tree'];
  const entries = new Map<number, PDFObject>();
  const collect = (node: PDFDict | undefined): void => {
    const nums = node?.lookupMaybe(name('Nums'), PDFArray);
    for (let i = 0; nums !== undefined && i + 1 < nums.size(); i += 2) entries.set(nums.lookup(i, PDFNumber).asNumber(), nums.get(i + 1));
    const kids = node?.lookupMaybe(name('Kids'), PDFArray);
    for (let i = 0; kids !== undefined && i < kids.size(); i++) collect(kids.lookupMaybe(i, PDFDict));
  };
  collect(root.lookupMaybe(name('ParentTree'), PDFDict));
  const kids = (element: PDFDict): PDFObject[] => {
    const k = element.get(name('K'));
    return k === undefined ? [] : k instanceof PDFArray ? k.asArray() : [k];
  };

  // every element's /P is the element (or root) that holds it
  const walk = (holder: PDFRef | null, objects: PDFObject[]): void => {
    for (const object of objects) {
      if (!(object instanceof PDFRef)) continue;
      const element = context.lookup(object);
      if (!(element instanceof PDFDict) || element.get(name('S')) === undefined) continue;
      const parent = element.get(name('P'));
      if (holder !== null && parent !== holder) problems.push(`element ${object.toString()} has /P ${String(parent)} instead of ${holder.toString()}`);
      walk(object, kids(element));
    }
  };
  walk(null, kids(root));

  document.getPages().forEach((page, index) => {
    const pageName = `page ${index + 1}`;
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => context.lookup(ref)) : [contents];
    const text = streams.map((stream) => (stream instanceof PDFRawStream ? Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1') : '')).join('\n');
    const mcids = [...text.matchAll(/\/MCID\s+(\d+)/g)].map((m) => Number(m[1]));
    const key = page.node.lookupMaybe(name('StructParents'), PDFNumber)?.asNumber();
    const parents = key === undefined ? undefined : context.lookup(entries.get(key));
    if (mcids.length > 0 && !(parents instanceof PDFArray)) problems.push(`${pageName}: marked content without a parent-tree entry`);
    for (const mcid of mcids) {
      const parentRef = parents instanceof PDFArray ? parents.get(mcid) : undefined;
      const parent = parentRef === undefined ? undefined : context.lookup(parentRef);
      const holds =
        parent instanceof PDFDict &&
        kids(parent).some((kid) => {
          if (kid instanceof PDFNumber) return kid.asNumber() === mcid && parent.get(name('Pg')) === page.ref;
          const reference = context.lookup(kid);
          return reference instanceof PDFDict && reference.lookup(name('MCID')) instanceof PDFNumber && reference.lookup(name('MCID'), PDFNumber).asNumber() === mcid && reference.get(name('Pg')) === page.ref;
        });
      if (!holds) problems.push(`${pageName}: MCID ${mcid} is not held by the element its parent-tree entry names`);
    }
    const annotations = page.node.Annots();
    for (let i = 0; annotations !== undefined && i < annotations.size(); i++) {
      const ref = annotations.get(i);
      const annotation = annotations.lookupMaybe(i, PDFDict);
      const annotationKey = annotation?.lookupMaybe(name('StructParent'), PDFNumber)?.asNumber();
      if (annotationKey === undefined) continue;
      const parent = context.lookup(entries.get(annotationKey));
      const holds = parent instanceof PDFDict && kids(parent).some((kid) => context.lookup(kid) instanceof PDFDict && (context.lookup(kid) as PDFDict).get(name('Obj')) === ref);
      if (!holds) problems.push(`${pageName}: annotation ${i + 1} is not held by the element its parent-tree entry names`);
    }
  });
  return problems;
}
