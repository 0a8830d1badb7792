/**
 * The DSL's checks without its compiler (`@docrender/template-dsl/checks`): template validation, the nesting limit,
 * the languages of translations, the built-in font families, calendar months. For processes that check and route documents but never
 * compile one on their event loop (the API gateway's main thread): the compiler (layout, charts with echarts, barcodes
 * with bwip-js) holds ≈ 17 MB of heap once loaded, and every full garbage collection of such a process would mark it
 * again for nothing.
 */
export { validateTemplate, compileTemplateValidator, checkTemplateVersion, checkDocumentNameTemplate, templateErrorLines, TemplateError, TemplateValidation, TemplateVersionContent } from './schema/validate-template';
export { languagesOf } from './i18n/translations';
export { nestingTooDeepIssue } from './data/check-data';
export { BUILTIN_FONT_FAMILIES, builtinVariants } from './fonts/font-registry';
export { addMonthsUtc } from './expression/calendar';
