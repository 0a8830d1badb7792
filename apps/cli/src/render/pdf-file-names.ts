import path from 'node:path';

const MAX_NAME = 200;

/**
 * File names `<documentName>.pdf` in one output directory: characters file systems refuse become `_`, and a name
 * already given out in this run (compared case-insensitively) gets the document's input index: `Invoice (7).pdf`.
 */
export class PdfFileNames {
  private readonly used = new Set<string>();

  constructor(private readonly directory: string) {}

  /** The path for the document at input `index`. */
  pathFor(documentName: string | null, index: number): string {
    let name = safeName(documentName ?? '') || `document-${index}`;
    if (this.used.has(name.toLowerCase())) name = `${name} (${index})`;
    this.used.add(name.toLowerCase());
    return path.join(this.directory, `${name}.pdf`);
  }
}

/** A document name made safe as a file name (no separators, control or reserved characters; not only dots). */
export function safeName(name: string): string {
  const cleaned = name.replace(/[/\\:*?"<>|\u0000-\u001f\u007f]/g, '_').trim().replace(/^\.+/, '').replace(/[. ]+$/, '');
  return cleaned.slice(0, MAX_NAME);
}
