import { Environment } from '../environment';

/** Spec 2.7 severity. */
export enum IssueSeverity {
  Information = 'Information',
  Warning = 'Warning',
  Error = 'Error',
}

/** Spec 7.3 render issue types. */
export enum RenderIssueType {
  // Error
  InvalidJson = 'InvalidJson',
  SchemaInvalid = 'SchemaInvalid',
  DangerousContent = 'DangerousContent',
  InvalidPageBackground = 'InvalidPageBackground',
  RenderTimeout = 'RenderTimeout',
  // Warning
  MissingBinding = 'MissingBinding',
  UnresolvedImage = 'UnresolvedImage',
  UnresolvedFont = 'UnresolvedFont',
  InvalidColor = 'InvalidColor',
  InvalidCondition = 'InvalidCondition',
  DataSourceNotEnumerable = 'DataSourceNotEnumerable',
  InvalidChartConfig = 'InvalidChartConfig',
  BindingFailedAtRender = 'BindingFailedAtRender',
  RenderLayoutDegraded = 'RenderLayoutDegraded',
  // Information
  UnformattedValue = 'UnformattedValue',
  InvalidLayout = 'InvalidLayout',
}

/** The severity of each issue type, exactly as spec 7.3 assigns it. */
export const ISSUE_SEVERITY: Record<RenderIssueType, IssueSeverity> = {
  [RenderIssueType.InvalidJson]: IssueSeverity.Error,
  [RenderIssueType.SchemaInvalid]: IssueSeverity.Error,
  [RenderIssueType.DangerousContent]: IssueSeverity.Error,
  [RenderIssueType.InvalidPageBackground]: IssueSeverity.Error,
  [RenderIssueType.RenderTimeout]: IssueSeverity.Error,
  [RenderIssueType.MissingBinding]: IssueSeverity.Warning,
  [RenderIssueType.UnresolvedImage]: IssueSeverity.Warning,
  [RenderIssueType.UnresolvedFont]: IssueSeverity.Warning,
  [RenderIssueType.InvalidColor]: IssueSeverity.Warning,
  [RenderIssueType.InvalidCondition]: IssueSeverity.Warning,
  [RenderIssueType.DataSourceNotEnumerable]: IssueSeverity.Warning,
  [RenderIssueType.InvalidChartConfig]: IssueSeverity.Warning,
  [RenderIssueType.BindingFailedAtRender]: IssueSeverity.Warning,
  [RenderIssueType.RenderLayoutDegraded]: IssueSeverity.Warning,
  [RenderIssueType.UnformattedValue]: IssueSeverity.Information,
  [RenderIssueType.InvalidLayout]: IssueSeverity.Information,
};

/**
 * Whether an issue of each type can come from a document's data (its values, their shape, their content) rather than
 * from the template alone. Validating a batch (spec 4.4) reports a template's own issue once, batch-wide
 * (documentIndex null), when every document has it; an issue that can come from the data stays with each document,
 * even when every document has it. Every type states it here, so a new type cannot be left out.
 */
export const ISSUE_FROM_DATA: Record<RenderIssueType, boolean> = {
  [RenderIssueType.InvalidJson]: true,
  [RenderIssueType.SchemaInvalid]: true,
  [RenderIssueType.DangerousContent]: true,
  [RenderIssueType.InvalidPageBackground]: false,
  [RenderIssueType.RenderTimeout]: false,
  [RenderIssueType.MissingBinding]: true,
  [RenderIssueType.UnresolvedImage]: false,
  [RenderIssueType.UnresolvedFont]: false,
  [RenderIssueType.InvalidColor]: false,
  [RenderIssueType.InvalidCondition]: false,
  [RenderIssueType.DataSourceNotEnumerable]: true,
  [RenderIssueType.InvalidChartConfig]: false,
  [RenderIssueType.BindingFailedAtRender]: true,
  [RenderIssueType.RenderLayoutDegraded]: false,
  [RenderIssueType.UnformattedValue]: true,
  [RenderIssueType.InvalidLayout]: false,
};

/** Plain shape of a render issue, for code that does not need the class. */
export type RenderIssue = {
  type: RenderIssueType;
  severity: IssueSeverity;
  description: string;
  elementId: string | null;
  documentIndex: number | null;
};

/** Builds an issue with the severity the spec assigns to its type. */
export function renderIssue(
  type: RenderIssueType,
  description: string,
  elementId: string | null = null,
  documentIndex: number | null = null,
): RenderIssue {
  return { type, severity: ISSUE_SEVERITY[type], description, elementId, documentIndex };
}

/**
 * Spec 7.4: which severities block a render. Test and preview renders are blocked by Error only;
 * production renders (and the validate endpoint's validity rule) by Warning and Error.
 */
export function blocksRender(severity: IssueSeverity, environment: Environment): boolean {
  switch (severity) {
    case IssueSeverity.Error:
      return true;
    case IssueSeverity.Warning:
      return environment === Environment.Production;
    case IssueSeverity.Information:
      return false;
  }
}

export function hasBlockingIssue(issues: readonly Pick<RenderIssue, 'severity'>[], environment: Environment): boolean {
  return issues.some((i) => blocksRender(i.severity, environment));
}

/**
 * Spec 3.1 rule 2: a document that ends without a PDF is explained in issues. Returns `issues` with a RenderTimeout
 * issue added (its description the failure's message) when none of them has severity Error, so a failure the render
 * service did not explain (or a render that never got an answer) still names that document (docs/decisions/0010).
 */
export function explainMissingDocument(issues: readonly RenderIssue[], failure: { code: string; message: string } | null): RenderIssue[] {
  if (issues.some((issue) => issue.severity === IssueSeverity.Error)) return [...issues];
  const reason = failure === null ? 'no reason was given' : `${failure.code}: ${failure.message}`;
  return [...issues, renderIssue(RenderIssueType.RenderTimeout, `The document was not rendered (${reason}).`)];
}
