import { RenderIssueType } from '@docrender/contracts';
import { IssueCollector } from '../issues/issue-collector';
import { ActiveTranslations, interpolate } from '../i18n/translations';
import { Argument, Binding, Expression, FormatterCall, TemplateSegments } from './binding-syntax';
import { applyFormatter, FormatSettings } from './formatters';
import { Lookup, Scope, step } from './scope';

/** What bindings are evaluated with, for one document. */
export interface BindingEnvironment {
  settings: FormatSettings;
  translations: ActiveTranslations;
  issues: IssueCollector;
}

const NUMERIC = /^\s*-?(\d+(\.\d*)?|\.\d+)\s*$/;

function asNumber(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && NUMERIC.test(value)) return Number(value);
  return null;
}

function evaluateExpression(expression: Expression, scope: Scope, env: BindingEnvironment, elementId: string | null): Lookup {
  switch (expression.kind) {
    case 'literal':
      return { found: true, value: expression.value };
    case 'path':
      return scope.resolve(expression.segments);
    case 'call': {
      const args = expression.args.map((a) => evaluateArgument(a, scope, env, elementId));
      if (expression.name === 't') {
        const key = args[0]?.found ? String(args[0].value) : '';
        const text = key ? env.translations.lookup(key) : undefined;
        if (text === undefined) {
          env.issues.add(
            RenderIssueType.MissingBinding,
            `The translation "${key}" is missing for language "${env.translations.language ?? 'default'}" and the default language.`,
            elementId,
          );
          return { found: true, value: key };
        }
        const rest = args.slice(1).map((a) => (a.found ? valueAsText(a.value) : ''));
        return { found: true, value: interpolate(text, rest) };
      }
      const list = args[0];
      if (!list || !list.found) return { found: false };
      if (!Array.isArray(list.value)) {
        env.issues.add(
          RenderIssueType.BindingFailedAtRender,
          `${expression.name}() needs a list but "${describeArgument(expression.args[0]?.expression)}" is not one.`,
          elementId,
        );
        return { found: true, value: null };
      }
      if (expression.name === 'count') return { found: true, value: list.value.length };
      const field = args[1]?.found ? String(args[1].value) : null;
      let total = 0;
      let skipped = 0;
      for (const item of list.value) {
        const v = field === null ? { found: true as const, value: item } : step(item, field);
        const n = v.found ? asNumber(v.value) : null;
        if (n === null) skipped++;
        else total += n;
      }
      if (skipped > 0) {
        env.issues.add(
          RenderIssueType.UnformattedValue,
          `sum() skipped ${skipped} item(s) of "${describeArgument(expression.args[0]?.expression)}" without a numeric ${field ?? 'value'}.`,
          elementId,
        );
      }
      return { found: true, value: Math.round(total * 1e9) / 1e9 };
    }
  }
}

function evaluateArgument(argument: Argument, scope: Scope, env: BindingEnvironment, elementId: string | null): Lookup {
  const lookup = evaluateExpression(argument.expression, scope, env, elementId);
  if (argument.formatters.length === 0) return lookup;
  const source = describeArgument(argument.expression);
  return { found: true, value: applyFormatters(argument.formatters, lookup.found ? lookup.value : undefined, source, env, elementId) };
}

function applyFormatters(formatters: readonly FormatterCall[], input: unknown, source: string, env: BindingEnvironment, elementId: string | null): unknown {
  let value = input;
  for (const formatter of formatters) {
    const outcome = applyFormatter(formatter, value, env.settings);
    if (outcome.ok) {
      value = outcome.value;
    } else {
      env.issues.add(
        RenderIssueType.UnformattedValue,
        `"{{ ${source} }}": ${outcome.reason}, so ${formatter.name} was not applied and the value is shown as is.`,
        elementId,
      );
    }
  }
  return value;
}

function describeArgument(expression: Expression | undefined): string {
  if (!expression) return '';
  if (expression.kind === 'path') return expression.text;
  if (expression.kind === 'literal') return String(expression.value);
  return `${expression.name}(…)`;
}

function valueAsText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/**
 * Evaluates a binding with its formatters. A path with no value is a MissingBinding (unless a `default`
 * formatter supplies one); a formatter that cannot handle the value is an UnformattedValue and the value
 * passes through unchanged.
 */
export function evaluateBinding(binding: Binding, scope: Scope, env: BindingEnvironment, elementId: string | null): unknown {
  const lookup = evaluateExpression(binding.expression, scope, env, elementId);
  if (!lookup.found && !binding.formatters.some((f) => f.name === 'default')) {
    env.issues.add(RenderIssueType.MissingBinding, `"{{ ${binding.source} }}" has no value in the data.`, elementId);
  }
  return applyFormatters(binding.formatters, lookup.found ? lookup.value : undefined, binding.source, env, elementId);
}

/** Turns a bound value into text; lists and objects cannot be shown and are reported. */
export function bindingText(value: unknown, binding: Binding, env: BindingEnvironment, elementId: string | null): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return String(value);
  env.issues.add(
    RenderIssueType.BindingFailedAtRender,
    `"{{ ${binding.source} }}" is ${Array.isArray(value) ? 'a list' : 'an object'}, which cannot be shown as text; pick one of its fields.`,
    elementId,
  );
  return '';
}

/** Evaluates template text to plain text (for URLs, colours, codes, names). */
export function renderPlainText(segments: TemplateSegments, scope: Scope, env: BindingEnvironment, elementId: string | null): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'string') out += segment;
    else out += bindingText(evaluateBinding(segment, scope, env, elementId), segment, env, elementId);
  }
  return out;
}

/** True when the binding is a bare page counter name (`pageNumber`, `totalPages`). */
export function pageCounterOf(binding: Binding): 'pageNumber' | 'totalPages' | null {
  const e = binding.expression;
  if (e.kind !== 'path' || e.segments.length !== 1) return null;
  const name = e.segments[0];
  return name === 'pageNumber' || name === 'totalPages' ? name : null;
}
