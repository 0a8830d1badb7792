import { Limits, RenderIssue, RenderIssueType, renderIssue } from '@docrender/contracts';
import { DOCUMENT_STEP_BUDGET, EvaluationBudget } from '../expression/expression-evaluator';
import { CHARACTERS_PER_STEP, textSteps } from '../expression/values';
import { dangerIn } from './dangerous-content';

/**
 * The sanitizer over document data (spec 7.3 DangerousContent, InvalidJson; spec 8 nesting limit).
 *
 * Everything here is iterative: JSON.parse is (V8), and the depth check walks an explicit stack, so a 100,000-deep
 * array is rejected without touching the call stack, before any recursive code (ajv, the compiler) sees the data.
 * A string is taken as JSON text. The gateway measures the depth of the documents it receives on their text (its
 * body scanner) and reports it with the same issue (nestingTooDeepIssue).
 *
 * The walk is charged to the document's step budget before it is done (issue 31, decision 0041): a step per value
 * (each key of an object, each item of a list) and one per CHARACTERS_PER_STEP characters of each string scanned, so
 * checking 50 MB of small values stops at the budget instead of taking its time unbounded.
 */

const MAX_DEPTH = Limits.maxNestingDepth;
/** Dangerous strings reported per document; one is enough to block, a few help the author. */
const MAX_REPORTED_STRINGS = 10;

interface Frame {
  value: object;
  depth: number;
  parent: Frame | null;
  key: string | number;
}

function pathOf(frame: Frame | null, key?: string | number): string {
  const parts: (string | number)[] = [];
  if (key !== undefined) parts.push(key);
  for (let f = frame; f !== null && f.parent !== null; f = f.parent) parts.push(f.key);
  let out = '$';
  for (let i = parts.length - 1; i >= 0; i--) {
    const p = parts[i];
    out += typeof p === 'number' ? `[${p}]` : /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(p) ? `.${p}` : `[${JSON.stringify(p)}]`;
  }
  return out;
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

export interface DataInspection {
  issues: RenderIssue[];
  /** The data as a value (parsed when it was JSON text); undefined when it cannot be used. */
  value: unknown;
  /** False when the data must not be walked any further (too deep, not JSON, not an object). */
  usable: boolean;
}

function describeNonJson(value: unknown): string | null {
  switch (typeof value) {
    case 'undefined':
      return 'undefined';
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    case 'bigint':
      return 'a BigInt';
    case 'number':
      return Number.isFinite(value) ? null : String(value);
    case 'boolean':
    case 'object':
    case 'string':
      return null;
  }
}

/**
 * The data could not be checked within the step budget: it cannot be used unchecked, in any environment (an Error),
 * and waiting does not change it.
 */
function tooCostlyToCheck(at: string): RenderIssue {
  return renderIssue(
    RenderIssueType.RenderTimeout,
    `The document data is too large to check within the document's budget of ${DOCUMENT_STEP_BUDGET.toLocaleString('en-US')} steps ` +
      `(a step per value, one per ${CHARACTERS_PER_STEP} characters of text); the check stopped at ${at}. Split the data into smaller documents.`,
  );
}

/** Charges `steps`; false once the budget is spent (the caller stops and reports where). */
function charge(budget: EvaluationBudget, steps: number): boolean {
  if (budget.exhausted) return false;
  try {
    budget.spend(steps);
    return true;
  } catch (error) {
    if (budget.exhausted) return false;
    throw error;
  }
}

/**
 * Checks data before anything else touches it: nesting depth (iterative), values JSON cannot hold,
 * HTML/script injection in strings, executables in strings, charging `budget` (the document's; a fresh one by default)
 * as it goes. Returns the parsed value for JSON text.
 */
export function inspectData(data: unknown, budget: EvaluationBudget = new EvaluationBudget()): DataInspection {
  const spent = (at: string): DataInspection => {
    // the one issue of the spent budget: the document's later expressions stay silent
    budget.reported = true;
    return { issues: [...issues, tooCostlyToCheck(at)], value: undefined, usable: false };
  };
  let value = data;
  if (typeof data === 'string') {
    try {
      value = JSON.parse(data) as unknown;
    } catch (error) {
      const reason = error instanceof Error ? error.message : 'parse error';
      return { issues: [renderIssue(RenderIssueType.InvalidJson, `The document data is not valid JSON: ${reason}.`)], value: undefined, usable: false };
    }
  }
  const issues: RenderIssue[] = [];
  const notJson = describeNonJson(value);
  if (notJson) {
    return {
      issues: [renderIssue(RenderIssueType.InvalidJson, `The document data is ${notJson}, not a JSON value.`)],
      value: undefined,
      usable: false,
    };
  }
  if (typeof value === 'string') {
    if (!charge(budget, 1 + textSteps(value.length))) return spent('$');
    scanString(value, '$', issues);
  }
  if (typeof value !== 'object' || value === null) {
    issues.push(renderIssue(RenderIssueType.SchemaInvalid, 'The document data must be a JSON object.'));
    return { issues, value, usable: false };
  }

  let reported = 0;
  const stack: Frame[] = [{ value, depth: 1, parent: null, key: '' }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    if (!Array.isArray(frame.value) && !isPlainObject(frame.value)) {
      issues.push(renderIssue(RenderIssueType.InvalidJson, `The value at ${pathOf(frame)} is not a JSON value (it is a ${frame.value.constructor?.name ?? 'special'} object).`));
      return { issues, value: undefined, usable: false };
    }
    // a step per value, charged before the list's keys are made
    if (Array.isArray(frame.value) && !charge(budget, frame.value.length)) return spent(pathOf(frame));
    const keys: (string | number)[] = Array.isArray(frame.value) ? Array.from(frame.value.keys()) : Object.keys(frame.value);
    if (!Array.isArray(frame.value) && !charge(budget, keys.length)) return spent(pathOf(frame));
    for (const key of keys) {
      const child = (frame.value as Record<string | number, unknown>)[key];
      if (typeof child === 'string') {
        if (!charge(budget, textSteps(child.length))) return spent(pathOf(frame, key));
        if (reported < MAX_REPORTED_STRINGS && scanString(child, null, issues, frame, key)) reported++;
        continue;
      }
      if (typeof child === 'object' && child !== null) {
        if (frame.depth + 1 > MAX_DEPTH) {
          issues.push(nestingTooDeepIssue({ at: pathOf(frame, key) }));
          return { issues, value: undefined, usable: false };
        }
        stack.push({ value: child, depth: frame.depth + 1, parent: frame, key });
        continue;
      }
      const bad = describeNonJson(child);
      if (bad) {
        issues.push(renderIssue(RenderIssueType.InvalidJson, `The value at ${pathOf(frame, key)} is ${bad}, which JSON cannot hold.`));
        return { issues, value: undefined, usable: false };
      }
    }
  }
  if (Array.isArray(value)) {
    issues.push(renderIssue(RenderIssueType.SchemaInvalid, 'The document data must be a JSON object, not a list.'));
    return { issues, value, usable: false };
  }
  return { issues, value, usable: true };
}

/**
 * Spec 8: the one DangerousContent issue for document data nested deeper than Limits.maxNestingDepth, with the depth
 * when it was measured (the gateway's body scanner) or where the walk found it.
 */
export function nestingTooDeepIssue(where: { levels: number } | { at: string }, documentIndex: number | null = null): RenderIssue {
  const found = 'levels' in where ? `${where.levels} levels deep` : `deeper than ${MAX_DEPTH} levels (at ${where.at})`;
  return renderIssue(RenderIssueType.DangerousContent, `The document data is nested ${found}; the limit is ${MAX_DEPTH}.`, null, documentIndex);
}

/** Reports a dangerous string; returns true when it did. */
function scanString(text: string, at: string | null, issues: RenderIssue[], frame?: Frame, key?: string | number): boolean {
  const danger = dangerIn(text);
  if (danger === null) return false;
  const where = at ?? pathOf(frame ?? null, key);
  issues.push(renderIssue(RenderIssueType.DangerousContent, `The value at ${where} contains ${danger}.`));
  return true;
}

/**
 * The sanitizer's verdict on document data: DangerousContent for nesting deeper than 32 levels, script or
 * HTML injection payloads and embedded executables, decoded as an attacker would encode them (`dangerIn`); InvalidJson for text that does not parse or values JSON
 * cannot hold; SchemaInvalid when the data is not an object. Cheap and iterative.
 */
export function checkData(data: unknown): RenderIssue[] {
  return inspectData(data).issues;
}
