import jsep from 'jsep';
import { checkFormatterArguments, FORMATTER_NAMES, FormatterName } from '../binding/formatters';
import { FUNCTION_NAMES } from './functions';

/**
 * The one expression language of bindings (`{{ … }}`) and conditions (`visibleIf`), parsed by jsep
 * (docs/decisions/0012-expression-language.md). jsep only parses: it builds a tree and runs nothing; the tree is
 * checked here (known functions and formatters, no method calls, bounded size) and interpreted by
 * `expression-evaluator.ts`, which reads own properties of the data only and calls only the functions of
 * `functions.ts`.
 *
 * Operators, loosest first: `=>` (in aggregate arguments), `? :`, `or`/`||`, `??`, `and`/`&&`, `|` (formatter),
 * `== !=`, `< <= > >= in not in`, `+ -`, `* / mod %`, `^ **`, then `not ! - +` in front.
 */

// jsep's grammar is global to the process; this module is the only user of jsep in it.
for (const op of ['&', '<<', '>>', '>>>', '^']) jsep.removeBinaryOp(op);
jsep.removeUnaryOp('~');
jsep.addBinaryOp('=>', 0.5, true);
jsep.addBinaryOp('or', 1);
jsep.addBinaryOp('and', 2);
jsep.addBinaryOp('in', 7);
jsep.addBinaryOp('not in', 7);
jsep.addBinaryOp('mod', 10);
jsep.addBinaryOp('^', 11, true);
jsep.addUnaryOp('not');

export type Node = jsep.Expression;

/** Longest expression accepted, in characters; bounds parse and evaluation work with the template size. */
export const MAX_EXPRESSION_LENGTH = 4000;
/** Deepest expression tree accepted. */
const MAX_EXPRESSION_DEPTH = 48;

export class ExpressionSyntaxError extends Error {
  constructor(
    message: string,
    /** Offset in the expression text (0-based). */
    readonly offset: number,
  ) {
    super(message);
    this.name = 'ExpressionSyntaxError';
  }
}

const ALLOWED_BINARY = new Set(['=>', 'or', '||', '??', 'and', '&&', '|', '==', '!=', '===', '!==', '<', '<=', '>', '>=', 'in', 'not in', '+', '-', '*', '/', '%', 'mod', '^', '**']);
const KNOWN_FUNCTIONS = new Set<string>(FUNCTION_NAMES);
const KNOWN_FORMATTERS = new Set<string>(FORMATTER_NAMES);

function literalValue(node: Node): string | number | null | undefined {
  if (node.type === 'Literal') {
    const v = (node as jsep.Literal).value;
    return typeof v === 'string' || typeof v === 'number' ? v : undefined;
  }
  if (node.type === 'UnaryExpression' && (node as jsep.UnaryExpression).operator === '-') {
    const inner = literalValue((node as jsep.UnaryExpression).argument);
    return typeof inner === 'number' ? -inner : undefined;
  }
  return undefined;
}

/** A formatter reference on the right of `|`: its name and argument nodes, or null when it is not one. */
export function formatterOf(node: Node): { name: FormatterName; args: Node[] } | null {
  if (node.type === 'Identifier') {
    const name = (node as jsep.Identifier).name;
    return KNOWN_FORMATTERS.has(name) ? { name: name as FormatterName, args: [] } : null;
  }
  if (node.type === 'CallExpression') {
    const call = node as jsep.CallExpression;
    if (call.callee.type !== 'Identifier') return null;
    const name = (call.callee as jsep.Identifier).name;
    return KNOWN_FORMATTERS.has(name) ? { name: name as FormatterName, args: call.arguments } : null;
  }
  return null;
}

/** Problems of a parsed tree that the grammar lets through; the first one found. */
function checkTree(node: Node, depth: number, parent: Node | null): string | null {
  if (depth > MAX_EXPRESSION_DEPTH) return `the expression is nested deeper than ${MAX_EXPRESSION_DEPTH} levels`;
  const child = (n: Node): string | null => checkTree(n, depth + 1, node);
  switch (node.type) {
    case 'Literal':
    case 'Identifier':
      return null;
    case 'ThisExpression':
      return '"this" is not available; name the data directly';
    case 'Compound':
      return 'one expression is expected (two are written side by side; a missing operator?)';
    case 'SequenceExpression': {
      const p = parent as jsep.BinaryExpression | null;
      if (!p || p.type !== 'BinaryExpression' || (p.operator !== 'in' && p.operator !== 'not in') || p.right !== node) {
        return 'a list in parentheses "(a, b)" is only allowed after "in"; write a list as [a, b]';
      }
      for (const e of (node as jsep.SequenceExpression).expressions) {
        const problem = child(e);
        if (problem) return problem;
      }
      return null;
    }
    case 'ArrayExpression':
      for (const e of (node as jsep.ArrayExpression).elements) {
        if (e === null) return 'a list has an empty place (two commas in a row?)';
        const problem = child(e);
        if (problem) return problem;
      }
      return null;
    case 'MemberExpression': {
      const m = node as jsep.MemberExpression;
      if (m.computed) {
        const index = literalValue(m.property);
        if (typeof index === 'number' && (!Number.isInteger(index) || index < 0)) return `"[${index}]" is not an index: indexes are whole numbers from 0`;
      }
      return child(m.object) ?? (m.computed ? child(m.property) : null);
    }
    case 'UnaryExpression':
      return child((node as jsep.UnaryExpression).argument);
    case 'ConditionalExpression': {
      const c = node as jsep.ConditionalExpression;
      return child(c.test) ?? child(c.consequent) ?? child(c.alternate);
    }
    case 'BinaryExpression': {
      const b = node as jsep.BinaryExpression;
      if (!ALLOWED_BINARY.has(b.operator)) return `the operator "${b.operator}" is not supported`;
      if (b.operator === '=>') {
        const p = parent as jsep.CallExpression | null;
        if (!p || p.type !== 'CallExpression' || !p.arguments.includes(node)) return '"x => …" is only allowed as an argument of a list function, e.g. sum(items, x => x.qty * x.price)';
        if (b.left.type !== 'Identifier') return 'the left of "=>" must be one name, e.g. line => line.qty';
        return child(b.right);
      }
      if (b.operator === '|') {
        const formatter = formatterOf(b.right);
        if (!formatter) {
          const name = b.right.type === 'Identifier' ? (b.right as jsep.Identifier).name : b.right.type === 'CallExpression' ? describeNode((b.right as jsep.CallExpression).callee) : describeNode(b.right);
          return `unknown formatter "${name}" (known: ${FORMATTER_NAMES.join(', ')})`;
        }
        const literalArgs = formatter.args.map(literalValue);
        if (literalArgs.every((a) => a !== undefined && a !== null)) {
          const problem = checkFormatterArguments({ name: formatter.name, args: literalArgs as (string | number)[] });
          if (problem) return problem;
        }
        for (const a of formatter.args) {
          const problem = child(a);
          if (problem) return problem;
        }
        return child(b.left);
      }
      return child(b.left) ?? child(b.right);
    }
    case 'CallExpression': {
      const call = node as jsep.CallExpression;
      if (call.callee.type !== 'Identifier') return `"${describeNode(call.callee)}(…)" cannot be called; only the functions of the language can (${FUNCTION_NAMES.join(', ')})`;
      const name = (call.callee as jsep.Identifier).name;
      if (!KNOWN_FUNCTIONS.has(name)) {
        const hint = KNOWN_FORMATTERS.has(name) ? `; ${name} is a formatter: write "value | ${name}(…)"` : '';
        return `unknown function "${name}" (known: ${FUNCTION_NAMES.join(', ')})${hint}`;
      }
      for (const a of call.arguments) {
        const problem = child(a);
        if (problem) return problem;
      }
      return null;
    }
    default:
      return `"${node.type}" is not part of the language`;
  }
}

const parsedCache = new Map<string, Node | ExpressionSyntaxError>();
const CACHE_LIMIT = 5000;

function parseUncached(text: string): Node | ExpressionSyntaxError {
  if (text.length > MAX_EXPRESSION_LENGTH) return new ExpressionSyntaxError(`the expression is longer than ${MAX_EXPRESSION_LENGTH} characters`, MAX_EXPRESSION_LENGTH);
  if (text.trim() === '') return new ExpressionSyntaxError('an expression is expected', 0);
  let tree: Node;
  try {
    tree = jsep(text);
  } catch (error) {
    const e = error as Error & { index?: number; description?: string };
    if (e instanceof RangeError) return new ExpressionSyntaxError('the expression is nested too deeply', 0);
    const message = (e.description ?? e.message).replace(/ at character \d+$/, '');
    return new ExpressionSyntaxError(message, typeof e.index === 'number' ? e.index : 0);
  }
  const problem = checkTree(tree, 0, null);
  return problem ? new ExpressionSyntaxError(problem, 0) : tree;
}

/** Parses and checks an expression; the result (tree or error) is cached by text. Never throws. */
export function parseExpression(text: string): Node | ExpressionSyntaxError {
  const hit = parsedCache.get(text);
  if (hit) return hit;
  const result = parseUncached(text);
  if (parsedCache.size >= CACHE_LIMIT) parsedCache.clear();
  parsedCache.set(text, result);
  return result;
}

/** Texts of nodes already written back: trees come from the parse cache and never change. */
const described = new WeakMap<Node, string>();

/**
 * The text of a (sub)expression, written back from its tree; names the part of an expression an issue is about.
 * Written once per node, so reporting a problem in every row of a list costs a step, not the expression's length.
 */
export function describeNode(node: Node): string {
  let text = described.get(node);
  if (text === undefined) {
    text = writeNode(node);
    described.set(node, text);
  }
  return text;
}

function writeNode(node: Node): string {
  switch (node.type) {
    case 'Literal':
      return (node as jsep.Literal).raw;
    case 'Identifier':
      return (node as jsep.Identifier).name;
    case 'MemberExpression': {
      const m = node as jsep.MemberExpression;
      return m.computed ? `${describeNode(m.object)}[${describeNode(m.property)}]` : `${describeNode(m.object)}.${describeNode(m.property)}`;
    }
    case 'CallExpression': {
      const c = node as jsep.CallExpression;
      return `${describeNode(c.callee)}(${c.arguments.map(describeNode).join(', ')})`;
    }
    case 'UnaryExpression': {
      const u = node as jsep.UnaryExpression;
      return /^[a-z]/.test(u.operator) ? `${u.operator} ${describeNode(u.argument)}` : `${u.operator}${describeNode(u.argument)}`;
    }
    case 'BinaryExpression': {
      const b = node as jsep.BinaryExpression;
      return `${describeNode(b.left)} ${b.operator} ${describeNode(b.right)}`;
    }
    case 'ConditionalExpression': {
      const c = node as jsep.ConditionalExpression;
      return `${describeNode(c.test)} ? ${describeNode(c.consequent)} : ${describeNode(c.alternate)}`;
    }
    case 'ArrayExpression':
      return `[${(node as jsep.ArrayExpression).elements.map((e) => (e ? describeNode(e) : '')).join(', ')}]`;
    case 'SequenceExpression':
      return `(${(node as jsep.SequenceExpression).expressions.map(describeNode).join(', ')})`;
    default:
      return node.type;
  }
}

/** Visits every node of a tree, parents first. */
export function forEachNode(node: Node, visit: (node: Node) => void): void {
  visit(node);
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) {
      for (const v of value) if (v && typeof v === 'object' && 'type' in v) forEachNode(v as Node, visit);
    } else if (value && typeof value === 'object' && 'type' in value) forEachNode(value as Node, visit);
  }
}
