import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { RenderIssue, RenderIssueType, renderIssue } from '@docrender/contracts';
import { jsonPathOf } from '../schema/json-path';

/**
 * The optional data contract of a template (`dataSchema`, JSON Schema draft-07), checked with ajv.
 * Remote `$ref`s are never loaded (no `loadSchema`), so checking does no I/O.
 */

const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: true, addUsedSchema: false });
addFormats(ajv);

/** At most this many SchemaInvalid issues per document. */
const MAX_REPORTED = 20;

const compiledByObject = new WeakMap<object, ValidateFunction | string>();
const acceptAll = ajv.compile(true);
const rejectAll = ajv.compile(false);

/** Compiles a data schema; returns the error text when the schema itself is not valid. */
export function compileDataSchema(schema: Record<string, unknown> | boolean): ValidateFunction | string {
  if (typeof schema === 'boolean') return schema ? acceptAll : rejectAll;
  const hit = compiledByObject.get(schema);
  if (hit) return hit;
  let result: ValidateFunction | string;
  try {
    result = ajv.compile(schema);
  } catch (error) {
    result = error instanceof Error ? error.message : String(error);
  } finally {
    // ajv keeps every compiled schema object; templates come and go, so let it forget this one.
    ajv.removeSchema(schema);
  }
  compiledByObject.set(schema, result);
  return result;
}


function describe(error: ErrorObject): string {
  const at = jsonPathOf(error.instancePath);
  if (error.keyword === 'required') return `${at} must have the field "${String((error.params as { missingProperty: string }).missingProperty)}"`;
  if (error.keyword === 'additionalProperties') {
    return `${at} must not have the field "${String((error.params as { additionalProperty: string }).additionalProperty)}"`;
  }
  return `${at} ${error.message ?? 'is invalid'}`;
}

/** SchemaInvalid issues for data that does not satisfy the template's data schema. */
export function checkDataContract(validate: ValidateFunction, data: unknown): RenderIssue[] {
  if (validate(data)) return [];
  const errors = validate.errors ?? [];
  const issues = errors
    .slice(0, MAX_REPORTED)
    .map((e) => renderIssue(RenderIssueType.SchemaInvalid, `The data does not match the template's data schema: ${describe(e)}.`));
  if (errors.length > MAX_REPORTED) {
    issues.push(renderIssue(RenderIssueType.SchemaInvalid, `${errors.length - MAX_REPORTED} further data schema violation(s) were not listed.`));
  }
  return issues;
}
