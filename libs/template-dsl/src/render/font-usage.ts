import type { Template } from '../model/template.types';
import { fontFamiliesOf } from './compile-document';

/** One stored version's DSL (JSON text), with what names it. */
export type VersionDsl = { templateId: string; templateName: string; versionNumber: number; published: boolean; templateJson: string };

/** A template some of whose versions use a family, and those versions. */
export type FontFamilyUse = { templateId: string; templateName: string; versions: { versionNumber: number; published: boolean }[] };

/** How a render matches a template's family with a custom one (compile-document's fontFaceCss): trimmed, any case. */
export const fontFamilyKey = (family: string): string => family.trim().toLowerCase();

/**
 * Which templates use each font family, and in which versions: the faces of fontFamiliesOf (header, body and footer;
 * generic names mapped to the built-in families, so the default family counts too), keyed by fontFamilyKey. Templates
 * and versions keep the order given. A version whose DSL cannot be read (stored before a check it fails) uses none.
 */
export function fontFamilyUsage(versions: Iterable<VersionDsl>): Map<string, FontFamilyUse[]> {
  const usage = new Map<string, FontFamilyUse[]>();
  for (const version of versions) {
    let families: string[];
    try {
      families = [...new Set(fontFamiliesOf(JSON.parse(version.templateJson) as Template).map((face) => fontFamilyKey(face.family)))];
    } catch {
      continue;
    }
    for (const family of families) {
      const uses = usage.get(family) ?? [];
      let use = uses.find((u) => u.templateId === version.templateId);
      if (use === undefined) {
        use = { templateId: version.templateId, templateName: version.templateName, versions: [] };
        uses.push(use);
      }
      use.versions.push({ versionNumber: version.versionNumber, published: version.published });
      usage.set(family, uses);
    }
  }
  return usage;
}
