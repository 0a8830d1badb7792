export * from './model/template.types';
export { templateJsonSchema } from './schema/template-json-schema';
export { validateTemplate, compileTemplateValidator, checkTemplateVersion, checkDocumentNameTemplate, templateErrorLines, TemplateError, TemplateValidation, TemplateVersionContent } from './schema/validate-template';
export { languagesOf } from './i18n/translations';
export { checkData, inspectData, nestingTooDeepIssue } from './data/check-data';
export { BandFaceSubsets } from './fonts/band-face-subsets';
export { GlyphCoverage } from './fonts/glyph-coverage';
export { SCRIPT_FONTS, SCRIPT_FONT_WEIGHTS, ScriptFont, scriptFontFiles } from './fonts/script-fonts';
export { BUILTIN_FONT_FAMILIES, BUILTIN_FONT_ORIGIN, builtinFontFile, BuiltinFontSource, builtinVariants, CustomFontFile, FontFaceRef, FontStyle } from './fonts/font-registry';
export { ImageResolution } from './render/images';
export { InvalidTemplateError } from './render/prepared-template';
export {
  compileDocument,
  validateDocument,
  imageReferencesOf,
  fontFamiliesOf,
  CompileInput,
  ValidateInput,
  CompiledDocument,
  PageVariant,
  PAGE_STYLE_ID,
  PLACED_ATTRIBUTE,
  placedBeyondPageIssue,
} from './render/compile-document';
export { fontFamilyKey, fontFamilyUsage, FontFamilyUse, VersionDsl } from './render/font-usage';
export { anchorNotPrintedIssue, anchorOfHtmlId, PAGE_REFERENCE_CLASS, UNRESOLVED_PAGE } from './render/page-references';
export { warmUp } from './render/warm-up';
export { BREAK_ROWS_CLASS, BreakRowsData, expandBreakRows } from './render/break-rows';
export { renderDocumentName } from './document-name/document-name';
export { CompiledEInvoice, EInvoiceMapping, TemplateEInvoice } from './e-invoice/e-invoice-mapping';
export { ArchivalOutput, ATTACHMENT_LIMITS, CompiledAttachment } from './render/archival';
