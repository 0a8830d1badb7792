import jsep from 'jsep';
import { applyFormatter, checkFormatterArguments, FormatSettings, FormatterCall, FormatterName } from '../binding/formatters';
import { Scope, step } from '../binding/scope';
import { ActiveTranslations } from '../i18n/translations';
import { describeNode, formatterOf, Node } from './expression-syntax';
import { CallContext, FUNCTIONS } from './functions';
import { cleanNumber, describeValue, includesItem, isTruthy, kindOf, MAX_TEXT_LENGTH, textSteps, toNumber } from './values';

/**
 * Interprets a checked expression tree (expression-syntax.ts) against a Scope. Sandboxed by construction: names and
 * properties are read through `Scope`/`step` (own properties of plain data only, never a prototype), calls reach only
 * the closed table of `functions.ts`, there are no loops, no recursion and no assignment, so the work is bounded by
 * the expression's size times the data's size; a per-document budget of steps (`EvaluationBudget`) turns even that
 * into a hard bound, and text produced by an expression is capped at MAX_TEXT_LENGTH characters.
 *
 * Every operator and function charges the budget by the work it does, before doing it: a step per node, per list
 * item visited or compared, per key counted, and per CHARACTERS_PER_STEP characters of text read, compared or
 * produced; a sort n·log2 n. So the time a document's expressions take is bounded by the budget, whatever the data
 * (docs/template-dsl.md lists the cost of each function).
 */

/** Evaluation steps per document (a node, or an item an aggregate visits). */
export const DOCUMENT_STEP_BUDGET = 5_000_000;
/**
 * Steps every evaluation of a binding or condition costs before its nodes: setting it up and reporting take about
 * as long as four nodes (measured on the shared machine), and a table evaluates its bindings once per row.
 */
export const EVALUATION_STEPS = 4;

export class BudgetExceeded extends Error {
  constructor() {
    super(`the document's expressions and drawing took more than ${DOCUMENT_STEP_BUDGET.toLocaleString('en-US')} evaluation steps`);
    this.name = 'BudgetExceeded';
  }
}

/** Steps left for one document's expressions. */
export class EvaluationBudget {
  private left: number;
  /** Set once the exhaustion has been reported, so it is reported once per document. */
  reported = false;

  constructor(private readonly steps = DOCUMENT_STEP_BUDGET) {
    this.left = steps;
  }

  /** Steps charged so far (past the budget included, for the charge that exceeded it). */
  get spent(): number {
    return this.steps - this.left;
  }

  spend(n: number): void {
    this.left -= n;
    if (this.left < 0) throw new BudgetExceeded();
  }

  get exhausted(): boolean {
    return this.left < 0;
  }
}

/**
 * What a problem is about: `missing` a value the data lacks, `type` a value of the wrong kind, `format` a formatter
 * that cannot handle its value, `translation` a missing translation.
 */
export type ProblemKind = 'missing' | 'type' | 'format' | 'translation';

export interface ExpressionHost {
  settings: FormatSettings;
  translations: ActiveTranslations;
  budget: EvaluationBudget;
}

export interface Problem {
  kind: ProblemKind;
  message: string;
  /** Further problems of this kind past the ones kept (MAX_PROBLEMS), counted on the first of its kind. */
  more?: number;
}

/** Problems one evaluation keeps (the issues report the first of each kind; a million would only take memory). */
const MAX_PROBLEMS = 100;

/** One evaluation of one expression: the problems it met, in order (the first MAX_PROBLEMS). */
export class Evaluation {
  readonly problems: Problem[] = [];
  private readonly firstOfKind = new Map<ProblemKind, Problem>();
  /** A missing value or a value of the wrong kind has been reported (later missing values are its consequence). */
  private failed = false;

  constructor(readonly host: ExpressionHost) {}

  report(kind: ProblemKind, message: string): undefined {
    this.host.budget.spend(1);
    // a list function can meet a problem in every item: the first ones are kept and the rest counted, so memory
    // stays bounded
    const first = this.firstOfKind.get(kind);
    if (this.problems.length < MAX_PROBLEMS || !first) {
      const problem: Problem = { kind, message };
      this.problems.push(problem);
      if (!first) this.firstOfKind.set(kind, problem);
    } else {
      first.more = (first.more ?? 0) + 1;
    }
    if (kind === 'missing' || kind === 'type') this.failed = true;
    return undefined;
  }

  /** True when the value is there; reports it as missing otherwise. */
  private present(node: Node, value: unknown): boolean {
    if (value !== undefined) return true;
    if (!this.failed) this.report('missing', `"${describeNode(node)}" has no value in the data`);
    return false;
  }

  /** Evaluates a node whose value is needed: a missing value is reported. */
  need(node: Node, scope: Scope): unknown {
    const value = this.eval(node, scope);
    this.present(node, value);
    return value;
  }

  eval(node: Node, scope: Scope): unknown {
    this.host.budget.spend(1);
    switch (node.type) {
      case 'Literal':
        return (node as jsep.Literal).value;
      case 'Identifier': {
        const lookup = scope.lookupName((node as jsep.Identifier).name);
        return lookup.found ? lookup.value : undefined;
      }
      case 'MemberExpression':
        return this.member(node as jsep.MemberExpression, scope);
      case 'ArrayExpression':
        return (node as jsep.ArrayExpression).elements.map((e) => (e ? this.eval(e, scope) : undefined));
      case 'SequenceExpression':
        return (node as jsep.SequenceExpression).expressions.map((e) => this.eval(e, scope));
      case 'ConditionalExpression': {
        const c = node as jsep.ConditionalExpression;
        return isTruthy(this.eval(c.test, scope)) ? this.eval(c.consequent, scope) : this.eval(c.alternate, scope);
      }
      case 'UnaryExpression':
        return this.unary(node as jsep.UnaryExpression, scope);
      case 'BinaryExpression':
        return this.binary(node as jsep.BinaryExpression, scope);
      case 'CallExpression':
        return this.call(node as jsep.CallExpression, scope);
      default:
        // The syntax check lets no other node through.
        return this.report('type', `"${describeNode(node)}" cannot be evaluated`);
    }
  }

  private member(node: jsep.MemberExpression, scope: Scope): unknown {
    const object = this.eval(node.object, scope);
    if (object === undefined || object === null) return undefined;
    let key: unknown;
    if (node.computed) {
      key = this.need(node.property, scope);
      if (key === undefined) return undefined;
      if (typeof key !== 'string' && !(typeof key === 'number' && Number.isInteger(key) && key >= 0)) {
        return this.report('type', `"${describeNode(node)}": ${describeValue(key)} is neither a field name nor an index`);
      }
      // a key from the data is hashed (and tested for an index) in proportion to its length
      if (typeof key === 'string') this.host.budget.spend(textSteps(key.length));
    } else {
      key = (node.property as jsep.Identifier).name;
    }
    const lookup = step(object, key as string | number);
    return lookup.found ? lookup.value : undefined;
  }

  private unary(node: jsep.UnaryExpression, scope: Scope): unknown {
    if (node.operator === 'not' || node.operator === '!') return !isTruthy(this.eval(node.argument, scope));
    const value = this.need(node.argument, scope);
    if (value === undefined) return undefined;
    const n = toNumber(value);
    if (n === null) return this.report('type', `"${describeNode(node)}": ${describeValue(value)} is not a number`);
    return node.operator === '-' ? -n : n;
  }

  private binary(node: jsep.BinaryExpression, scope: Scope): unknown {
    const op = node.operator;
    switch (op) {
      case 'and':
      case '&&': {
        const left = this.eval(node.left, scope);
        return isTruthy(left) ? isTruthy(this.eval(node.right, scope)) : false;
      }
      case 'or':
      case '||': {
        const left = this.eval(node.left, scope);
        return isTruthy(left) ? true : isTruthy(this.eval(node.right, scope));
      }
      case '??': {
        const left = this.eval(node.left, scope);
        return left === undefined || left === null ? this.eval(node.right, scope) : left;
      }
      case '|':
        return this.pipe(node, scope);
      case '=>':
        // Only reached outside a list function, which the syntax check refuses.
        return this.report('type', `"${describeNode(node)}" is only meaningful as an argument of a list function`);
      case '==':
      case '===':
      case '!=':
      case '!==':
        return this.equality(node, scope);
      case '<':
      case '<=':
      case '>':
      case '>=':
        return this.ordering(node, scope);
      case 'in':
      case 'not in':
        return this.membership(node, scope);
      default:
        return this.arithmetic(node, scope);
    }
  }

  private equality(node: jsep.BinaryExpression, scope: Scope): unknown {
    const negate = node.operator === '!=' || node.operator === '!==';
    const nullLiteral = (n: Node): boolean => n.type === 'Literal' && (n as jsep.Literal).value === null;
    const left = this.eval(node.left, scope);
    const right = this.eval(node.right, scope);
    if (nullLiteral(node.left) || nullLiteral(node.right)) {
      // `x == null` tests for "no value": missing and null alike.
      const other = nullLiteral(node.left) ? right : left;
      const isNull = other === undefined || other === null;
      return negate ? !isNull : isNull;
    }
    if (!this.present(node.left, left) || !this.present(node.right, right)) return undefined;
    const lk = kindOf(left);
    const rk = kindOf(right);
    if (lk === 'list' || lk === 'object' || rk === 'list' || rk === 'object') {
      return this.report('type', `"${describeNode(node)}" compares ${describeValue(lk === 'list' || lk === 'object' ? left : right)}, which is never equal to anything; compare one of its fields`);
    }
    if (lk !== rk && lk !== 'null' && rk !== 'null') {
      return this.report('type', `"${describeNode(node)}" compares ${describeValue(left)} with ${describeValue(right)}: values of different kinds are never equal`);
    }
    if (typeof left === 'string' && typeof right === 'string') this.host.budget.spend(textSteps(Math.min(left.length, right.length)));
    const equal = left === right;
    return negate ? !equal : equal;
  }

  private ordering(node: jsep.BinaryExpression, scope: Scope): unknown {
    const left = this.need(node.left, scope);
    const right = this.need(node.right, scope);
    if (left === undefined || right === undefined) return undefined;
    let a: number | string;
    let b: number | string;
    if (typeof left === 'string' && typeof right === 'string') {
      this.host.budget.spend(textSteps(Math.min(left.length, right.length)));
      a = left;
      b = right;
    } else {
      const ln = typeof left === 'number' ? left : null;
      const rn = typeof right === 'number' ? right : null;
      if (ln === null || rn === null) {
        return this.report('type', `"${describeNode(node)}" orders ${describeValue(left)} and ${describeValue(right)}: only two numbers or two texts (e.g. ISO dates) can be ordered`);
      }
      a = ln;
      b = rn;
    }
    switch (node.operator) {
      case '<':
        return a < b;
      case '<=':
        return a <= b;
      case '>':
        return a > b;
      default:
        return a >= b;
    }
  }

  private membership(node: jsep.BinaryExpression, scope: Scope): unknown {
    const negate = node.operator === 'not in';
    const needle = this.need(node.left, scope);
    const haystack = this.need(node.right, scope);
    if (needle === undefined || haystack === undefined) return undefined;
    let found: boolean;
    if (Array.isArray(haystack)) {
      found = includesItem(haystack, needle, this.host.budget);
    } else if (typeof haystack === 'string' && typeof needle === 'string') {
      this.host.budget.spend(textSteps(haystack.length + needle.length));
      found = haystack.includes(needle);
    } else {
      return this.report('type', `"${describeNode(node)}": "in" needs a list (or a text to search in), not ${describeValue(haystack)}`);
    }
    return negate ? !found : found;
  }

  private arithmetic(node: jsep.BinaryExpression, scope: Scope): unknown {
    const left = this.need(node.left, scope);
    const right = this.need(node.right, scope);
    if (left === undefined || right === undefined) return undefined;
    if (node.operator === '+' && (typeof left === 'string' || typeof right === 'string')) {
      if (!isText(left) || !isText(right)) {
        return this.report('type', `"${describeNode(node)}" joins ${describeValue(left)} and ${describeValue(right)}; only texts and numbers can be joined`);
      }
      return this.text(node, String(left) + String(right));
    }
    const a = toNumber(left);
    const b = toNumber(right);
    if (a === null || b === null) {
      return this.report('type', `"${describeNode(node)}": ${describeValue(a === null ? left : right)} is not a number`);
    }
    let result: number;
    switch (node.operator) {
      case '+':
        result = a + b;
        break;
      case '-':
        result = a - b;
        break;
      case '*':
        result = a * b;
        break;
      case '/':
        if (b === 0) return this.report('type', `"${describeNode(node)}" divides by zero`);
        result = a / b;
        break;
      case '%':
      case 'mod':
        if (b === 0) return this.report('type', `"${describeNode(node)}" divides by zero`);
        result = a % b;
        break;
      default:
        result = a ** b;
    }
    if (!Number.isFinite(result)) return this.report('type', `"${describeNode(node)}" is not a finite number`);
    return cleanNumber(result);
  }

  /** Text produced by an expression, within the length cap. */
  text(node: Node, value: string): string | undefined {
    if (!this.fits(node, value.length)) return undefined;
    this.host.budget.spend(textSteps(value.length));
    return value;
  }

  /** True when text of `length` characters may be produced; reports the cap otherwise (before the text is built). */
  fits(node: Node, length: number): boolean {
    if (length <= MAX_TEXT_LENGTH) return true;
    this.report('type', `"${describeNode(node)}" would produce more than ${MAX_TEXT_LENGTH.toLocaleString('en-US')} characters`);
    return false;
  }

  private pipe(node: jsep.BinaryExpression, scope: Scope): unknown {
    const formatter = formatterOf(node.right);
    const input = this.eval(node.left, scope);
    if (!formatter) return this.report('type', `"${describeNode(node.right)}" is not a formatter`);
    const args: (string | number)[] = [];
    for (const a of formatter.args) {
      const v = this.need(a, scope);
      if (v === undefined) return input;
      if (typeof v !== 'string' && typeof v !== 'number') {
        this.report('format', `the argument "${describeNode(a)}" of ${formatter.name} is ${describeValue(v)}, not a text or a number, so ${formatter.name} was not applied and the value is shown as is`);
        return input;
      }
      args.push(v);
    }
    const call = formatterCall(node, formatter.name, args);
    if (formatter.args.length > 0) {
      const problem = checkFormatterArguments(call);
      if (problem) {
        this.report('format', `${problem}, so ${formatter.name} was not applied and the value is shown as is`);
        return input;
      }
    }
    if (formatter.name === 'markdown') return input;
    if (typeof input === 'string') {
      this.host.budget.spend(textSteps(input.length));
      // upper and lower never shorten a text: one over the cap is refused before it is converted
      if ((formatter.name === 'upper' || formatter.name === 'lower') && !this.fits(node, input.length)) return input;
    }
    const outcome = applyFormatter(call, input, this.host.settings);
    if (outcome.ok) return typeof outcome.value === 'string' && outcome.value !== input ? this.text(node, outcome.value) : outcome.value;
    this.report('format', `${outcome.reason}, so ${formatter.name} was not applied and the value is shown as is`);
    return input;
  }

  private call(node: jsep.CallExpression, scope: Scope): unknown {
    const name = (node.callee as jsep.Identifier).name;
    const fn = Object.prototype.hasOwnProperty.call(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
    if (!fn) return this.report('type', `unknown function "${name}"`);
    return fn(new Call(this, node, scope));
  }
}

/** One call object per pipe node and arguments, so the formatters' per-call Intl cache is hit on every row. */
const formatterCalls = new WeakMap<Node, FormatterCall>();

function formatterCall(node: Node, name: FormatterName, args: (string | number)[]): FormatterCall {
  const cached = formatterCalls.get(node);
  if (cached && cached.name === name && cached.args.length === args.length && cached.args.every((a, i) => a === args[i])) return cached;
  const call: FormatterCall = { name, args };
  formatterCalls.set(node, call);
  return call;
}

function isText(value: unknown): boolean {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** The arguments of one function call, evaluated on demand. */
class Call implements CallContext {
  constructor(
    private readonly evaluation: Evaluation,
    readonly node: jsep.CallExpression,
    private readonly scope: Scope,
  ) {}

  get name(): string {
    return (this.node.callee as jsep.Identifier).name;
  }

  get argumentCount(): number {
    return this.node.arguments.length;
  }

  get host(): ExpressionHost {
    return this.evaluation.host;
  }

  describe(i?: number): string {
    if (i === undefined) return describeNode(this.node);
    const arg = this.node.arguments[i];
    return arg ? describeNode(arg) : '';
  }

  value(i: number): unknown {
    const arg = this.node.arguments[i];
    return arg ? this.evaluation.eval(arg, this.scope) : undefined;
  }

  need(i: number): unknown {
    const arg = this.node.arguments[i];
    if (!arg) return this.fail(`${this.name}() needs at least ${i + 1} argument(s)`);
    return this.evaluation.need(arg, this.scope);
  }

  list(i: number): unknown[] | undefined {
    const value = this.need(i);
    if (value === undefined) return undefined;
    if (value === null) return [];
    if (!Array.isArray(value)) return this.fail(`${this.name}() needs a list but "${this.describe(i)}" is ${describeValue(value)}`);
    return value;
  }

  itemValue(i: number): ((item: unknown) => unknown) | null | undefined {
    const arg = this.node.arguments[i];
    if (!arg) return null;
    if (arg.type === 'BinaryExpression' && (arg as jsep.BinaryExpression).operator === '=>') {
      const arrow = arg as jsep.BinaryExpression;
      const param = (arrow.left as jsep.Identifier).name;
      return (item) => this.evaluation.eval(arrow.right, this.scope.with(param, item));
    }
    const field = this.evaluation.need(arg, this.scope);
    if (field === undefined) return undefined;
    if (typeof field !== 'string') {
      return this.fail(`${this.name}() takes a field name ('amount') or a function (x => x.qty * x.price) as argument ${i + 1}, not ${describeValue(field)}`);
    }
    this.spend(textSteps(field.length));
    const path = field.split('.');
    // a step per key read, on top of the list function's step per item (reading a key costs about as much as a node)
    const steps = path.length;
    return (item) => {
      this.spend(steps);
      let current: unknown = item;
      for (const key of path) {
        const lookup = step(current, key);
        if (!lookup.found) return undefined;
        current = lookup.value;
      }
      return current;
    };
  }

  fail(message: string): undefined {
    return this.evaluation.report('type', `${message}`);
  }

  report(kind: 'translation' | 'missing', message: string): void {
    this.evaluation.report(kind, message);
  }

  text(value: string): string | undefined {
    return this.evaluation.text(this.node, value);
  }

  fits(length: number): boolean {
    return this.evaluation.fits(this.node, length);
  }

  spend(n: number): void {
    this.evaluation.host.budget.spend(n);
  }
}
