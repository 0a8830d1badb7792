import { DomainError, ErrorCode, type CustomFontRef, type Environment } from '@docrender/contracts';
import { languagesOf } from '@docrender/template-dsl/checks';
import { ParsedJsonCache } from './parsed-json.cache';

/** Who renders: the organisation and the environment of its key (test: watermark, no credit; production: credit). */
export type RenderScope = { organisationId: string; environment: Environment };

/** What every document of one render request (or one async job) is rendered with. */
export type RenderTarget = RenderScope & {
  /** The template DSL (parsed). */
  template: unknown;
  /** The translations (parsed), or null. */
  translations: unknown;
  language: string | null;
  documentNameTemplate: string | null;
  /** The document name when the name template yields none. */
  fallbackDocumentName: string;
  customFonts: CustomFontRef[];
  /** The stored template and version rendered; null for a stateless render (4.3). */
  source: RenderSource | null;
};

export type RenderSource = { templateId: string; versionNumber: number };

/** A render of a stored template as a job and a stored document record it: who, which version, in which language. */
export type TemplateRender = RenderScope & RenderSource & { language: string | null };

/**
 * What a render of a stored template reads (spec 4.2, 4.4, 4.5): the template, the version it addresses and the
 * organisation's custom fonts.
 */
export type RenderableTemplate = {
  template: { id: string; name: string; documentNameTemplate: string | null };
  /** null when the addressed version does not exist (or, for the latest, nothing is published). */
  version: { versionNumber: number; templateJson: string; translations: string | null; documentNameTemplate: string | null } | null;
  customFonts: CustomFontRef[];
};

/** The port the target is read through: the template, the addressed version and the fonts in one round trip. */
export type RenderableTemplates = {
  findRenderable(organisationId: string, templateId: string, versionNumber: number | null): Promise<RenderableTemplate | null>;
};

/** The port a stateless render's fonts are read through. */
export type CustomFonts = { listCustomFontRefs(organisationId: string): Promise<CustomFontRef[]> };

/** The stored template text (DSL or translations) of a version is not JSON: the version cannot be rendered. */
export class UnreadableTemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableTemplateError';
  }
}

/** How the language of a stored-template render is taken. */
export type LanguageChoice =
  /** As the client asked: matched case-insensitively to the version's spelling; 400 ValidationError when undefined. */
  | { requested: string | null }
  /** As matched when the job was accepted (an async job's stored language). */
  | { matched: string | null };

/** The largest version number PostgreSQL's integer column holds; a larger one cannot exist. */
const MAX_VERSION_NUMBER = 2_147_483_647;
/** Parsed templates and translations kept: a few dozen versions in use, each at most 256 K characters of JSON. */
const PARSED_VERSIONS_KEPT = 32;
const PARSED_TEXT_MAX_LENGTH = 256 * 1024;

/** The document name of a stateless render without a name template. */
export const STATELESS_DOCUMENT_NAME = 'document';

/**
 * Resolves what the documents of a render are rendered with, for the sync render, the validate endpoint, the enqueue
 * of a job and the job worker alike (one code path): the organisation's template and the version a render addresses
 * (version `versionNumber`, draft or not, or the latest published one when it is null) and the organisation's custom
 * fonts, read in one query; the template and translations parsed (cached); the language.
 * 404 TemplateNotFound (also for another organisation's template), VersionNotFound, NoPublishedVersion.
 */
export class RenderTargetResolver {
  private readonly parsed = new ParsedJsonCache(PARSED_VERSIONS_KEPT, PARSED_TEXT_MAX_LENGTH);

  constructor(private readonly templates: RenderableTemplates, private readonly fonts: CustomFonts) {}

  async forStoredTemplate(scope: RenderScope, templateId: string, versionNumber: number | null, language: LanguageChoice): Promise<RenderTarget> {
    const inRange = versionNumber === null || (versionNumber >= 1 && versionNumber <= MAX_VERSION_NUMBER);
    const found = await this.templates.findRenderable(scope.organisationId, templateId, inRange ? versionNumber : 0);
    if (found === null) throw new DomainError(ErrorCode.TemplateNotFound, `template ${templateId} not found`);
    const { template, version, customFonts } = found;
    if (version === null) {
      if (versionNumber === null) throw new DomainError(ErrorCode.NoPublishedVersion, `template ${templateId} has no published version`);
      throw new DomainError(ErrorCode.VersionNotFound, `version ${versionNumber} of template ${templateId} not found`);
    }
    return {
      organisationId: scope.organisationId,
      environment: scope.environment,
      template: this.parse(`${template.id}:${version.versionNumber}:template`, version.templateJson, 'the template DSL'),
      translations: version.translations === null ? null : this.parse(`${template.id}:${version.versionNumber}:translations`, version.translations, 'the translations'),
      language: 'matched' in language ? language.matched : language.requested === null ? null : definedLanguage(template.id, version, language.requested),
      documentNameTemplate: version.documentNameTemplate ?? template.documentNameTemplate,
      fallbackDocumentName: template.name,
      customFonts,
      source: { templateId: template.id, versionNumber: version.versionNumber },
    };
  }

  async forStatelessTemplate(scope: RenderScope, template: unknown, translations: unknown, language: string | null): Promise<RenderTarget> {
    return {
      organisationId: scope.organisationId,
      environment: scope.environment,
      template,
      translations,
      language,
      documentNameTemplate: null,
      fallbackDocumentName: STATELESS_DOCUMENT_NAME,
      customFonts: await this.fonts.listCustomFontRefs(scope.organisationId),
      source: null,
    };
  }

  private parse(key: string, text: string, what: string): unknown {
    try {
      return this.parsed.parse(key, text);
    } catch (error) {
      throw new UnreadableTemplateError(`${what} of the template version is not valid JSON: ${(error as Error).message}`);
    }
  }
}

/** The version's spelling of the language (matched case-insensitively); 400 ValidationError when it has none. */
function definedLanguage(templateId: string, version: { versionNumber: number; translations: string | null }, language: string): string {
  const defined = languagesOf(version.translations);
  const match = defined.find((code) => code.toLowerCase() === language.toLowerCase());
  if (match === undefined) {
    const available = defined.length === 0 ? 'it defines no languages' : `it defines ${defined.join(', ')}`;
    throw new DomainError(
      ErrorCode.ValidationError,
      `language ${JSON.stringify(language)} is not defined on version ${version.versionNumber} of template ${templateId}: ${available}`,
    );
  }
  return match;
}
