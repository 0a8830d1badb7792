import { eInvoiceTemplateErrors } from '../e-invoice/e-invoice-mapping';
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import { BindingSyntaxError, parseTemplateTextCached } from '../binding/binding-syntax';
import { isMarkdownBinding } from '../binding/binding-evaluator';
import { isValidCurrency, isValidLocale, isValidTimeZone } from '../binding/formatters';
import { ExpressionSyntaxError, parseExpression } from '../expression/expression-syntax';
import { compileDataSchema } from '../data/data-contract';
import { modelOf } from '../model/element-model';
import { colourFieldsOf, pageBackgroundsOf, styleColourFields, textFieldsOf, walkElements, watermarksOf } from '../model/template-walker';
import { Template } from '../model/template.types';
import { templateJsonSchema } from './template-json-schema';
import { parseTranslations } from '../i18n/translations';
import { jsonPathOf } from './json-path';

export interface TemplateError {
  /** JSON path of the problem, e.g. `$.body[3].columns[0].value`. */
  path: string;
  message: string;
}

export type TemplateValidation = { ok: true; template: Template } | { ok: false; errors: TemplateError[] };

/** Templates deeper than this are refused before the (recursive) schema validator sees them. */
const MAX_TEMPLATE_DEPTH = 64;
const MAX_ERRORS = 50;

let dslValidator: ValidateFunction | null = null;

/**
 * Compiles the validator of the DSL's JSON Schema now, once per thread, rather than in the first template's
 * validation: about 0.4 s of CPU on a 2-core AMD EPYC, which a thread serving requests would otherwise spend on its
 * first one (the gateway's event loop on its first stateless render; a compile thread in warmUp).
 */
export function compileTemplateValidator(): void {
  validator();
}

function validator(): ValidateFunction {
  if (!dslValidator) {
    const ajv = new Ajv({ allErrors: true, discriminator: true, strict: true, strictTypes: false });
    dslValidator = ajv.compile(templateJsonSchema);
  }
  return dslValidator;
}


function schemaErrorMessage(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `must have the field "${String(params.missingProperty)}"`;
    case 'additionalProperties':
      return `has an unknown field "${String(params.additionalProperty)}"`;
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    default:
      return e.message ?? 'is invalid';
  }
}

/** Schema errors, minus the echoes a oneOf/discriminator produces for an error already reported inside it. */
function schemaErrors(errors: ErrorObject[]): TemplateError[] {
  const out: TemplateError[] = [];
  const seen = new Set<string>();
  const reportedPaths = errors.filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'discriminator').map((e) => e.instancePath);
  for (const e of errors) {
    if ((e.keyword === 'oneOf' || e.keyword === 'discriminator') && reportedPaths.some((p) => p.startsWith(e.instancePath))) continue;
    const error = { path: jsonPathOf(e.instancePath), message: schemaErrorMessage(e) };
    const key = `${error.path} ${error.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(error);
    }
  }
  return out;
}

/** Iterative depth check, so a hostile, deeply nested template never reaches recursive code. */
function tooDeepAt(value: unknown): string | null {
  const stack: { value: unknown; depth: number; path: string }[] = [{ value, depth: 1, path: '$' }];
  while (stack.length > 0) {
    const { value: v, depth, path } = stack.pop() as { value: unknown; depth: number; path: string };
    if (typeof v !== 'object' || v === null) continue;
    if (depth > MAX_TEMPLATE_DEPTH) return path;
    if (Array.isArray(v)) v.forEach((child, i) => stack.push({ value: child, depth: depth + 1, path: `${path}[${i}]` }));
    else for (const [key, child] of Object.entries(v)) stack.push({ value: child, depth: depth + 1, path: `${path}.${key}` });
  }
  return null;
}

/**
 * Template text whose bindings do not parse, or that declares Markdown outside rich text. Formatter names and
 * literal arguments are checked with the expression (expression-syntax.ts), inside function arguments too.
 */
function bindingErrors(text: string, path: string, markdownAllowed = false): TemplateError[] {
  const parsed = parseTemplateTextCached(text);
  if (parsed instanceof BindingSyntaxError) {
    return [{ path, message: `binding syntax error at character ${parsed.offset + 1}: ${parsed.message}` }];
  }
  if (markdownAllowed) return [];
  return parsed
    .filter((s) => typeof s !== 'string' && isMarkdownBinding(s))
    .map((s) => ({ path, message: `"{{ ${typeof s === 'string' ? s : s.source} }}": only rich text (richText.markdown) can show Markdown from data` }));
}

/** A list source (a path or an expression) that does not parse. */
function listSourceErrors(source: string, path: string): TemplateError[] {
  const parsed = parseExpression(source);
  return parsed instanceof ExpressionSyntaxError ? [{ path, message: `expression syntax error at character ${parsed.offset + 1}: ${parsed.message}` }] : [];
}

/** Checks that go beyond the schema: unique ids, known styles, bindings that parse, valid settings. */
function semanticErrors(template: Template): TemplateError[] {
  const errors: TemplateError[] = [];
  const styles = template.styles ?? {};
  const firstPathOfId = new Map<string, string>();
  const checkStyleNames = (names: string | string[] | undefined, path: string): void => {
    for (const name of names === undefined ? [] : Array.isArray(names) ? names : [names]) {
      if (!Object.prototype.hasOwnProperty.call(styles, name)) errors.push({ path, message: `names the style "${name}", which "styles" does not define` });
    }
  };
  const checkColourText = (fields: [string, string][]): void => {
    for (const [path, value] of fields) if (value.includes('{{')) errors.push(...bindingErrors(value, path));
  };

  if (template.locale !== undefined && !isValidLocale(template.locale)) {
    errors.push({ path: '$.locale', message: `"${template.locale}" is not a BCP 47 locale` });
  }
  if (template.timeZone !== undefined && !isValidTimeZone(template.timeZone)) {
    errors.push({ path: '$.timeZone', message: `"${template.timeZone}" is not an IANA time zone` });
  }
  if (template.currency !== undefined && !isValidCurrency(template.currency)) {
    errors.push({ path: '$.currency', message: `"${template.currency}" is not an ISO 4217 currency code` });
  }
  if (template.title !== undefined) errors.push(...bindingErrors(template.title, '$.title'));
  if (template.eInvoice !== undefined) errors.push(...eInvoiceTemplateErrors(template.eInvoice, '$.eInvoice'));
  for (const [field, value] of Object.entries(template.metadata ?? {})) errors.push(...bindingErrors(value, `$.metadata.${field}`));
  (template.attachments ?? []).forEach((attachment, i) => {
    const path = `$.attachments[${i}]`;
    for (const field of ['name', 'mimeType', 'description', 'content', 'asset'] as const) {
      const value = attachment[field];
      if (value !== undefined) errors.push(...bindingErrors(value, `${path}.${field}`));
    }
    if ((attachment.content === undefined) === (attachment.asset === undefined)) errors.push({ path, message: 'needs either "content" or "asset"' });
    const first = firstPathOfId.get(attachment.id);
    if (first) errors.push({ path: `${path}.id`, message: `the id "${attachment.id}" is already used by ${first}` });
    else firstPathOfId.set(attachment.id, path);
    if (template.pdfA?.startsWith('PDF/A-2')) {
      errors.push({ path, message: `${template.pdfA} allows only PDF/A files as attachments, which the service cannot prove: use PDF/A-3b or PDF/A-3u` });
    }
  });
  const backgrounds = pageBackgroundsOf(template.page);
  backgrounds.forEach((b, i) => errors.push(...bindingErrors(b.source, Array.isArray(template.page?.background) ? `$.page.background[${i}].source` : '$.page.background.source')));
  watermarksOf(template.page).forEach((w, i) => {
    const path = Array.isArray(template.page?.watermark) ? `$.page.watermark[${i}]` : '$.page.watermark';
    if ((w.text === undefined) === (w.image === undefined)) errors.push({ path, message: 'needs either "text" or "image"' });
    if (w.text !== undefined) errors.push(...bindingErrors(w.text, `${path}.text`));
    if (w.image !== undefined) errors.push(...bindingErrors(w.image, `${path}.image`));
    if (w.color !== undefined) checkColourText([[`${path}.color`, w.color]]);
  });
  checkColourText(styleColourFields(template.defaultStyle, '$.defaultStyle'));
  for (const [name, style] of Object.entries(styles)) checkColourText(styleColourFields(style, `$.styles.${name}`));
  if (template.dataSchema !== undefined) {
    const compiled = compileDataSchema(template.dataSchema);
    if (typeof compiled === 'string') errors.push({ path: '$.dataSchema', message: `is not a valid JSON Schema: ${compiled}` });
  }

  walkElements(template, ({ element, path }) => {
    const first = firstPathOfId.get(element.id);
    if (first) errors.push({ path: `${path}.id`, message: `the id "${element.id}" is already used by ${first}` });
    else firstPathOfId.set(element.id, path);
    if (element.type !== 'pageBreak') checkStyleNames(element.styleName, `${path}.styleName`);
    for (const [fieldPath, text] of textFieldsOf(element, path)) errors.push(...bindingErrors(text, fieldPath, element.type === 'richText'));
    const source = modelOf(element).listSource(element);
    if (source !== null) errors.push(...listSourceErrors(source, `${path}.source`));
    checkColourText(colourFieldsOf(element, path));
    if (element.type === 'table') {
      const columnIds = new Set<string>();
      element.columns.forEach((column, i) => {
        if (columnIds.has(column.id)) errors.push({ path: `${path}.columns[${i}].id`, message: `the column id "${column.id}" is used twice` });
        columnIds.add(column.id);
        checkStyleNames(column.styleName, `${path}.columns[${i}].styleName`);
      });
      for (const key of Object.keys(element.totals?.cells ?? {})) {
        if (!columnIds.has(key)) errors.push({ path: `${path}.totals.cells`, message: `"${key}" is not a column id of this table` });
      }
      for (const field of ['carried', 'brought'] as const) {
        for (const key of Object.keys(element.pageBreaks?.[field] ?? {})) {
          if (!columnIds.has(key)) errors.push({ path: `${path}.pageBreaks.${field}`, message: `"${key}" is not a column id of this table` });
        }
      }
    }
  });
  return errors;
}

function parseIfText(template: unknown): { value: unknown } | { error: TemplateError } {
  if (typeof template !== 'string') return { value: template };
  try {
    return { value: JSON.parse(template) as unknown };
  } catch (error) {
    return { error: { path: '$', message: `is not valid JSON: ${error instanceof Error ? error.message : String(error)}` } };
  }
}

const validatedObjects = new WeakMap<object, TemplateValidation>();

/**
 * Validates a template (an object, or its JSON text): the published JSON Schema, then unique element ids,
 * known named styles, bindings that parse with known formatters and valid arguments, valid locale,
 * time zone and currency, and a data schema that compiles. Errors name JSON paths (`$.body[0].text`).
 */
export function validateTemplate(template: unknown): TemplateValidation {
  const parsed = parseIfText(template);
  if ('error' in parsed) return { ok: false, errors: [parsed.error] };
  const value = parsed.value;
  if (typeof value === 'object' && value !== null) {
    const hit = validatedObjects.get(value);
    if (hit) return hit;
  }
  const deepAt = tooDeepAt(value);
  let result: TemplateValidation;
  if (deepAt) {
    result = { ok: false, errors: [{ path: deepAt, message: `the template is nested deeper than ${MAX_TEMPLATE_DEPTH} levels` }] };
  } else {
    const validate = validator();
    if (!validate(value)) {
      result = { ok: false, errors: schemaErrors(validate.errors ?? []).slice(0, MAX_ERRORS) };
    } else {
      const errors = semanticErrors(value as Template);
      result = errors.length > 0 ? { ok: false, errors: errors.slice(0, MAX_ERRORS) } : { ok: true, template: value as Template };
    }
  }
  if (typeof value === 'object' && value !== null) validatedObjects.set(value, result);
  return result;
}

/** What a stored template version consists of, as the render of it reads it (spec 2.3). */
export type TemplateVersionContent = {
  /** The DSL (an object, or its JSON text). */
  template: unknown;
  /** The translations (object or JSON text), or null/absent for none. */
  translations?: unknown;
  /** The document-name template, or null/absent for the fallback name. */
  documentNameTemplate?: string | null;
};

/**
 * The checks a render runs on a template version before any data is looked at: `validateTemplate` (schema, ids,
 * styles, bindings with known functions and formatters, locale, time zone, currency, data schema), translations in
 * the documented format (a render's `language` is chosen among their languages), and a document-name template whose
 * bindings parse. The one check of the render and validate paths and of every way a version is stored (admin
 * import-template and publish-version, seed files, the document-name PATCH): what it refuses is never stored or
 * published. Errors name the part (`$.body[0].text`, `translations`, `documentNameTemplate`) and say what is wrong.
 */
export function checkTemplateVersion(version: TemplateVersionContent): TemplateValidation {
  const template = validateTemplate(version.template);
  const errors = template.ok ? [] : [...template.errors];
  if (version.translations !== null && version.translations !== undefined && parseTranslations(version.translations) === null) {
    errors.push({
      path: 'translations',
      message: 'must be { "defaultLanguage": "<code>", "languages": { "<code>": { "locale": "<locale>", "strings": { … } } } } (JSON) with at least one language',
    });
  }
  errors.push(...checkDocumentNameTemplate(version.documentNameTemplate));
  if (errors.length > 0) return { ok: false, errors: errors.slice(0, MAX_ERRORS) };
  return template;
}

/**
 * A document-name template (spec 2.2, 2.3: a template's or a version's) whose bindings do not parse, or that asks
 * for Markdown: a render would silently fall back to the template's name. Null or absent is fine (no pattern).
 */
export function checkDocumentNameTemplate(pattern: string | null | undefined, path = 'documentNameTemplate'): TemplateError[] {
  return pattern === null || pattern === undefined ? [] : bindingErrors(pattern, path);
}

/** The errors of a refused template version as one line each: `path: message`. */
export function templateErrorLines(errors: readonly TemplateError[]): string[] {
  return errors.map((e) => `${e.path}: ${e.message}`);
}
