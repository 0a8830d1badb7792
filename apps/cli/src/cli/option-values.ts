import { UsageError } from './usage.error';
import type { OptionValues } from './command';

/** A string option's value, or undefined. */
export function stringOption(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new UsageError(`--${name} needs a value`);
  return value;
}

export function requiredString(values: OptionValues, name: string): string {
  const value = stringOption(values, name);
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

/** A whole-number option (≥ min), or undefined. */
export function integerOption(values: OptionValues, name: string, min: number): number | undefined {
  const text = stringOption(values, name);
  if (text === undefined) return undefined;
  if (!/^-?\d+$/.test(text) || Number(text) < min) throw new UsageError(`--${name} must be a whole number ≥ ${min}, got '${text}'`);
  return Number(text);
}

export function flag(values: OptionValues, name: string): boolean {
  return values[name] === true;
}

/** An ISO 8601 date-time option, or undefined. */
export function dateOption(values: OptionValues, name: string): string | undefined {
  const text = stringOption(values, name);
  if (text === undefined) return undefined;
  if (Number.isNaN(Date.parse(text))) throw new UsageError(`--${name} must be an ISO 8601 date or time, got '${text}'`);
  return text;
}

/** One of `choices`, or undefined. */
export function choiceOption<C extends string>(values: OptionValues, name: string, choices: readonly C[]): C | undefined {
  const text = stringOption(values, name);
  if (text === undefined) return undefined;
  if (!(choices as readonly string[]).includes(text)) throw new UsageError(`--${name} must be one of ${choices.join(', ')}, got '${text}'`);
  return text as C;
}

/** The command's single required positional. */
export function positional(positionals: readonly string[], index: number, name: string): string {
  const value = positionals[index];
  if (value === undefined || value === '') throw new UsageError(`<${name}> is required`);
  return value;
}
