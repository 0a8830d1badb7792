import { RenderIssueType } from '@docrender/contracts';
import { EInvoiceProfile, PROFILES, ProfileInfo, createEInvoice, isEInvoiceProfile } from '@docrender/e-invoice';
import { BudgetExceeded, EVALUATION_STEPS, Evaluation } from '../expression/expression-evaluator';
import { ExpressionSyntaxError, parseExpression } from '../expression/expression-syntax';
import { Binding, BindingSyntaxError, parseTemplateTextCached } from '../binding/binding-syntax';
import { BindingEnvironment, evaluateBinding, renderPlainText, reportBudget } from '../binding/binding-evaluator';
import { Scope, loopInfo } from '../binding/scope';

/**
 * A template's e-invoice (issue 34 item 3): the profile, and the EN 16931 invoice model (libs/e-invoice, model.ts)
 * written with the page's own expressions. Every string may hold bindings: a string that is one binding alone
 * (`"{{ totals.gross }}"`) gives the expression's value as it is (a number stays a number, a list a list); a string
 * with text around its bindings gives text. `{ "$each": "<list source>", "$as": "item", "$value": … }` maps each
 * item of a list (with `loop` as in a repeater) — the invoice lines, typically.
 */
export interface TemplateEInvoice {
  profile: EInvoiceProfile;
  invoice: EInvoiceMapping;
}

export type EInvoiceMapping = string | number | boolean | null | EInvoiceMapping[] | EInvoiceEach | { [key: string]: EInvoiceMapping };

export interface EInvoiceEach {
  $each: string;
  $as?: string;
  $value: EInvoiceMapping;
}

/** The e-invoice a document carries: its XML and the names the PDF/A-3 embedding needs. */
export interface CompiledEInvoice {
  profile: EInvoiceProfile;
  /** `factur-x.xml`, or `xrechnung.xml`. */
  fileName: ProfileInfo['fileName'];
  /** The Factur-X XMP `fx:ConformanceLevel`; absent for XRechnung. */
  conformanceLevel?: ProfileInfo['conformanceLevel'];
  xml: string;
}

/** Issues of the e-invoice are the template's (no element): their descriptions name the path in `eInvoice`. */
const E_INVOICE_ELEMENT_ID = null;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function isEach(value: unknown): value is EInvoiceEach {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && '$each' in value;
}

/** The template errors of an `eInvoice` (validate-template): bindings and list sources that do not parse, malformed `$each`. */
export function eInvoiceTemplateErrors(spec: TemplateEInvoice, path: string): { path: string; message: string }[] {
  const errors: { path: string; message: string }[] = [];
  if (!isEInvoiceProfile(spec.profile)) errors.push({ path: `${path}.profile`, message: `"${String(spec.profile)}" is not an e-invoice profile` });
  const stack: { value: unknown; path: string }[] = [{ value: spec.invoice, path: `${path}.invoice` }];
  while (stack.length > 0) {
    const { value, path: at } = stack.pop() as { value: unknown; path: string };
    if (typeof value === 'string') {
      const parsed = parseTemplateTextCached(value);
      if (parsed instanceof BindingSyntaxError) errors.push({ path: at, message: `binding syntax error at character ${parsed.offset + 1}: ${parsed.message}` });
    } else if (isEach(value)) {
      const extra = Object.keys(value).filter((k) => k !== '$each' && k !== '$as' && k !== '$value');
      if (extra.length > 0) errors.push({ path: at, message: `"$each" takes "$as" and "$value" only, not ${extra.map((k) => `"${k}"`).join(', ')}` });
      if (typeof value.$each !== 'string') errors.push({ path: `${at}.$each`, message: 'is the list source (a data path or an expression)' });
      else {
        const tree = parseExpression(value.$each);
        if (tree instanceof ExpressionSyntaxError) errors.push({ path: `${at}.$each`, message: `expression syntax error at character ${tree.offset + 1}: ${tree.message}` });
      }
      if (value.$as !== undefined && (typeof value.$as !== 'string' || !IDENTIFIER.test(value.$as))) errors.push({ path: `${at}.$as`, message: 'is a name (letters, digits, _)' });
      if (!('$value' in value)) errors.push({ path: at, message: '"$each" needs "$value", what each item maps to' });
      else stack.push({ value: value.$value, path: `${at}.$value` });
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push({ value: v, path: `${at}[${i}]` }));
    } else if (typeof value === 'object' && value !== null) {
      for (const [k, v] of Object.entries(value)) stack.push({ value: v, path: `${at}.${k}` });
    }
  }
  return errors;
}

/**
 * Evaluates the mapping with the document's data and expressions, checks the invoice with the product's rules and
 * builds its XML. Each failed rule is a SchemaInvalid Error naming the rule id, the model
 * path and the binding that gave the value; the document then has no e-invoice (null).
 */
export function compileEInvoice(spec: TemplateEInvoice, scope: Scope, env: BindingEnvironment): CompiledEInvoice | null {
  const sources = new Map<string, string>();
  const invoice = evaluate(spec.invoice, '', scope, env, sources);
  // stopped by the step budget (its issue is reported): an invoice of partly evaluated data is no invoice
  if (env.budget.exhausted) return null;
  const result = createEInvoice(invoice, spec.profile);
  const info = PROFILES[spec.profile];
  if (result.ok) return { profile: spec.profile, fileName: result.fileName, conformanceLevel: info.conformanceLevel, xml: result.xml };
  for (const v of result.violations) {
    const binding = bindingFor(v.path, sources);
    env.issues.add(
      RenderIssueType.SchemaInvalid,
      `E-invoice (${info.label}) rule ${v.rule} at eInvoice.invoice${v.path ? `.${v.path}` : ''}${binding ? ` (${binding})` : ''}: ${v.message}`,
      E_INVOICE_ELEMENT_ID,
      `${v.rule}\u0000${v.path}`,
    );
  }
  return null;
}

/** The binding that gave the value at a model path, or that of the nearest enclosing value. */
function bindingFor(path: string, sources: Map<string, string>): string | undefined {
  for (let p = path; ; ) {
    const found = sources.get(p);
    if (found !== undefined) return found;
    const cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
    if (cut <= 0) return undefined;
    p = p.slice(0, cut);
  }
}

const child = (path: string, key: string | number): string => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key);

function evaluate(mapping: unknown, path: string, scope: Scope, env: BindingEnvironment, sources: Map<string, string>): unknown {
  if (typeof mapping === 'string') return evaluateText(mapping, path, scope, env, sources);
  if (isEach(mapping)) {
    const items = listOf(mapping.$each, scope, env);
    sources.set(path, `$each ${mapping.$each}`);
    const name = mapping.$as ?? 'item';
    const mapped: unknown[] = [];
    for (let i = 0; i < items.length; i++) {
      // every item is charged to the step budget, as a repeater's are when drawn, whatever its mapping evaluates
      try {
        env.budget.spend(EVALUATION_STEPS);
      } catch (error) {
        if (!(error instanceof BudgetExceeded)) throw error;
        reportBudget(env, E_INVOICE_ELEMENT_ID, RenderIssueType.BindingFailedAtRender);
        break;
      }
      mapped.push(evaluate(mapping.$value, child(path, i), scope.with(name, items[i]).with('loop', loopInfo(i, items.length)), env, sources));
    }
    return mapped;
  }
  if (Array.isArray(mapping)) return mapping.map((m, i) => evaluate(m, child(path, i), scope, env, sources));
  if (typeof mapping === 'object' && mapping !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(mapping)) {
      const v = evaluate(value, child(path, key), scope, env, sources);
      if (v !== undefined) out[key] = v;
    }
    return out;
  }
  return mapping;
}

function evaluateText(text: string, path: string, scope: Scope, env: BindingEnvironment, sources: Map<string, string>): unknown {
  const parsed = parseTemplateTextCached(text);
  if (parsed instanceof BindingSyntaxError) return text; // validate-template refused it already
  const bindings = parsed.filter((s): s is Binding => typeof s !== 'string');
  if (bindings.length === 0) return parsed.join('');
  sources.set(path, `"${text.length > 80 ? `${text.slice(0, 77)}…` : text}"`);
  if (parsed.length === 1) {
    const value = evaluateBinding(bindings[0], scope, env, E_INVOICE_ELEMENT_ID);
    return value === null ? undefined : value;
  }
  return renderPlainText(parsed, scope, env, E_INVOICE_ELEMENT_ID);
}

function listOf(source: string, scope: Scope, env: BindingEnvironment): unknown[] {
  const tree = parseExpression(source);
  if (tree instanceof ExpressionSyntaxError || env.budget.exhausted) return [];
  const evaluation = new Evaluation(env);
  let value: unknown;
  try {
    env.budget.spend(EVALUATION_STEPS);
    value = evaluation.eval(tree, scope);
  } catch (error) {
    if (!(error instanceof BudgetExceeded)) throw error;
    reportBudget(env, E_INVOICE_ELEMENT_ID, RenderIssueType.BindingFailedAtRender);
    return [];
  }
  for (const problem of evaluation.problems) {
    const type = problem.kind === 'type' ? RenderIssueType.BindingFailedAtRender : problem.kind === 'format' ? RenderIssueType.UnformattedValue : RenderIssueType.MissingBinding;
    env.issues.add(type, `The e-invoice list "${source}": ${problem.message}.`, E_INVOICE_ELEMENT_ID, `list\u0000${problem.kind}\u0000${source}`, 1 + (problem.more ?? 0));
  }
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    env.issues.add(RenderIssueType.DataSourceNotEnumerable, `"${source}" should be a list but is ${typeof value === 'object' ? 'an object' : `a ${typeof value}`}; the e-invoice maps no item of it.`, E_INVOICE_ELEMENT_ID);
    return [];
  }
  return value;
}
