import { Injectable } from '@nestjs/common';
import { FontSource, type FontFamilyDto, type FontVariantDto, type ListQuery, type PagedResult } from '@docrender/contracts';
import { FontRepository } from '@docrender/persistence';
import { BUILTIN_FONT_FAMILIES, builtinVariants } from '@docrender/template-dsl/checks';
import type { Caller } from '../auth/caller';
import { listInMemory, type ListingValue } from '../listing/in-memory-listing';

/** Built-in families with every weight × style their bundled files offer (fixed for the life of the process). */
function builtinFamilies(): FontFamilyDto[] {
  return BUILTIN_FONT_FAMILIES.map((family) => {
    const { weights, styles } = builtinVariants(family);
    return { family, source: FontSource.Builtin, variants: weights.flatMap((weight) => styles.map((style) => ({ weight, style }))) };
  });
}

function byWeightThenStyle(a: FontVariantDto, b: FontVariantDto): number {
  return a.weight - b.weight || (a.style === b.style ? 0 : a.style === 'normal' ? -1 : 1);
}

/**
 * Spec 4.18 "fonts area": the families a template may name in fontFamily — the built-in ones and the organisation's
 * live custom families — each with the variants (weight, style) it has files for, on the shared listing contract
 * (LISTINGS.fonts: filter family Text / source Enum, sort family (default) or source, search over family).
 */
@Injectable()
export class FontsService {
  private readonly builtins = builtinFamilies();

  constructor(private readonly fonts: FontRepository) {}

  async list(caller: Caller, query: ListQuery): Promise<PagedResult<FontFamilyDto>> {
    const custom = (await this.fonts.listLiveFamilies(caller.organisationId)).map(
      (f): FontFamilyDto => ({
        family: f.family,
        source: FontSource.Custom,
        variants: f.files.map((file) => ({ weight: file.weight, style: file.style })).sort(byWeightThenStyle),
      }),
    );
    return listInMemory([...this.builtins, ...custom], query, {
      value: (record, field): ListingValue => (field === 'family' ? record.family : field === 'source' ? record.source : null),
      search: ['family'],
      key: (record) => `${record.family.toLowerCase()}\u0000${record.source}`,
    });
  }
}
