export * from './model/template.types';
export { templateJsonSchema } from './schema/template-json-schema';
export { validateTemplate, TemplateError, TemplateValidation } from './schema/validate-template';
export { languagesOf } from './i18n/translations';
export { checkData } from './data/check-data';
export { BUILTIN_FONT_FAMILIES } from './fonts/font-registry';
export { builtinVariants } from './fonts/font-registry';
