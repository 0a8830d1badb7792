export * from './model/template.types';
export { templateJsonSchema } from './schema/template-json-schema';
export { validateTemplate, TemplateError, TemplateValidation } from './schema/validate-template';
export { languagesOf } from './i18n/translations';
export { checkData, inspectData, nestingTooDeepIssue } from './data/check-data';
export { BandFaceSubsets } from './fonts/band-face-subsets';
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
export { renderDocumentName } from './document-name/document-name';
