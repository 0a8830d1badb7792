import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode } from '@docrender/contracts';
import { FontRepository } from '@docrender/persistence';
import { languagesOf } from '@docrender/template-dsl';
import type { Caller } from '../auth/caller';
import { ParsedJsonCache } from './parsed-json.cache';
import { RenderTemplateResolver, type ResolvedTemplate } from './render-template.resolver';
import type { RenderTarget } from './render-target';

/** Parsed templates and translations kept: a few dozen versions in use, each at most 256 K characters of JSON. */
const PARSED_VERSIONS_KEPT = 32;
const PARSED_TEXT_MAX_LENGTH = 256 * 1024;

/** The document name of a stateless render without a name template. */
export const STATELESS_DOCUMENT_NAME = 'document';

/**
 * Builds what the documents of a request are rendered with: the stored template and version (404s of spec 4.2), the
 * requested language (400 ValidationError when the version does not define it), the organisation's custom fonts.
 */
@Injectable()
export class RenderTargetFactory {
  private readonly parsed = new ParsedJsonCache(PARSED_VERSIONS_KEPT, PARSED_TEXT_MAX_LENGTH);

  constructor(
    private readonly resolver: RenderTemplateResolver,
    private readonly fonts: FontRepository,
  ) {}

  async forStoredTemplate(caller: Caller, templateId: string, versionNumber: number | null, language: string | null): Promise<RenderTarget> {
    const resolved = await this.resolver.resolve(caller.organisationId, templateId, versionNumber);
    const { template, version, customFonts } = resolved;
    return {
      organisationId: caller.organisationId,
      environment: caller.environment,
      template: this.parsed.parse(version.templateJson),
      translations: version.translations === null ? null : this.parsed.parse(version.translations),
      language: language === null ? null : this.definedLanguage(resolved, language),
      documentNameTemplate: version.documentNameTemplate ?? template.documentNameTemplate,
      fallbackDocumentName: template.name,
      customFonts,
      source: { templateId: template.id, versionNumber: version.versionNumber },
    };
  }

  async forStatelessTemplate(caller: Caller, template: unknown, translations: unknown, language: string | null): Promise<RenderTarget> {
    return {
      organisationId: caller.organisationId,
      environment: caller.environment,
      template,
      translations,
      language,
      documentNameTemplate: null,
      fallbackDocumentName: STATELESS_DOCUMENT_NAME,
      customFonts: await this.fonts.listCustomFontRefs(caller.organisationId),
      source: null,
    };
  }

  /** The version's spelling of the language (matched case-insensitively); 400 ValidationError when it has none. */
  private definedLanguage({ template, version }: ResolvedTemplate, language: string): string {
    const defined = languagesOf(version.translations);
    const match = defined.find((code) => code.toLowerCase() === language.toLowerCase());
    if (match === undefined) {
      const available = defined.length === 0 ? 'it defines no languages' : `it defines ${defined.join(', ')}`;
      throw new DomainError(
        ErrorCode.ValidationError,
        `language ${JSON.stringify(language)} is not defined on version ${version.versionNumber} of template ${template.id}: ${available}`,
      );
    }
    return match;
  }
}
