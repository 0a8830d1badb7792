import type * as Contracts from '@docrender/contracts';

/**
 * The runtime values of the wire contract the SDK needs, restated without `@docrender/contracts` so that a user's app
 * does not load NestJS, class-validator and class-transformer (the contracts' DTO classes carry their decorators).
 *
 * Every value is typed as the contract's own type, and `exactly` makes the compiler prove each enum restatement has the
 * contract's members with the contract's values (a missing, extra or misspelt member is a compile error).
 * `contract-values.spec.ts` compares them at runtime as well, and checks that this module
 * exports every value the shared webhook library imports from the contracts: the package build
 * (`libs/client/scripts/build-package.mjs`) points that library's `@docrender/contracts` imports here.
 *
 * Only `import type` from `@docrender/contracts` is allowed in this library (checked by `contract-values.spec.ts`).
 */

/** The member → value map of a string enum, with the values as literal types. */
type EnumValues<E> = { [K in keyof E]: E[K] extends string ? `${E[K]}` : never };

function exactly<E>(values: EnumValues<E>): E {
  return Object.freeze(values) as unknown as E;
}

export const Environment = exactly<typeof Contracts.Environment>({ Test: 'test', Production: 'production' });
export type Environment = Contracts.Environment;

export const API_KEY_PREFIX: Readonly<Record<Environment, string>> = Object.freeze({
  [Environment.Test]: 'service_test_',
  [Environment.Production]: 'service_prod_',
});

export const WEBHOOK_SECRET_PREFIX: typeof Contracts.WEBHOOK_SECRET_PREFIX = 'whsec_';

export const DocumentType = exactly<typeof Contracts.DocumentType>({ Template: 'Template', Invoice: 'Invoice' });
export type DocumentType = Contracts.DocumentType;

export const IssueSeverity = exactly<typeof Contracts.IssueSeverity>({ Information: 'Information', Warning: 'Warning', Error: 'Error' });
export type IssueSeverity = Contracts.IssueSeverity;

export const RenderIssueType = exactly<typeof Contracts.RenderIssueType>({
  InvalidJson: 'InvalidJson',
  SchemaInvalid: 'SchemaInvalid',
  DangerousContent: 'DangerousContent',
  InvalidPageBackground: 'InvalidPageBackground',
  RenderTimeout: 'RenderTimeout',
  MissingBinding: 'MissingBinding',
  UnresolvedImage: 'UnresolvedImage',
  UnresolvedFont: 'UnresolvedFont',
  InvalidColor: 'InvalidColor',
  InvalidCondition: 'InvalidCondition',
  DataSourceNotEnumerable: 'DataSourceNotEnumerable',
  InvalidChartConfig: 'InvalidChartConfig',
  BindingFailedAtRender: 'BindingFailedAtRender',
  RenderLayoutDegraded: 'RenderLayoutDegraded',
  UnformattedValue: 'UnformattedValue',
  InvalidLayout: 'InvalidLayout',
});
export type RenderIssueType = Contracts.RenderIssueType;

/** The severity spec 7.3 assigns to each issue type. */
export const ISSUE_SEVERITY: Readonly<Record<RenderIssueType, IssueSeverity>> = Object.freeze({
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
});

export const RenderStatus = exactly<typeof Contracts.RenderStatus>({
  Ok: 'ok',
  Partial: 'partial',
  Failed: 'failed',
  InsufficientCredit: 'insufficient_credit',
});
export type RenderStatus = Contracts.RenderStatus;

export const JobState = exactly<typeof Contracts.JobState>({ Pending: 'pending', Completed: 'completed', Failed: 'failed' });
export type JobState = Contracts.JobState;

export const WebhookEvent = exactly<typeof Contracts.WebhookEvent>({
  Progress: 'render.progress',
  Completed: 'render.completed',
  Failed: 'render.failed',
});
export type WebhookEvent = Contracts.WebhookEvent;

export const WebhookHeader: typeof Contracts.WebhookHeader = Object.freeze({
  Signature: 'X-Service-Signature',
  Event: 'X-Service-Event',
  Delivery: 'X-Service-Delivery',
});

export const ErrorCode = exactly<typeof Contracts.ErrorCode>({
  ValidationError: 'ValidationError',
  Unauthorized: 'Unauthorized',
  NotAuthenticated: 'NotAuthenticated',
  Forbidden: 'Forbidden',
  TemplateNotFound: 'TemplateNotFound',
  VersionNotFound: 'VersionNotFound',
  NoPublishedVersion: 'NoPublishedVersion',
  DocumentNotFound: 'DocumentNotFound',
  OrganizationNotFound: 'OrganizationNotFound',
  ImageNotFound: 'ImageNotFound',
  EntityNotFound: 'EntityNotFound',
  NotAcceptable: 'NotAcceptable',
  PdfDeleted: 'PdfDeleted',
  PayloadTooLarge: 'PayloadTooLarge',
  BindingError: 'BindingError',
  TooManyRequests: 'TooManyRequests',
  InternalError: 'InternalError',
  RenderTimeout: 'RenderTimeout',
  ExternalServiceError: 'ExternalServiceError',
  QueueFull: 'QueueFull',
});
export type ErrorCode = Contracts.ErrorCode;

export const SortDirection = exactly<typeof Contracts.SortDirection>({ Asc: 'asc', Desc: 'desc' });
export type SortDirection = Contracts.SortDirection;

export const FilterOperator = exactly<typeof Contracts.FilterOperator>({
  Eq: 'eq',
  Neq: 'neq',
  Contains: 'contains',
  Gt: 'gt',
  Gte: 'gte',
  Lt: 'lt',
  Lte: 'lte',
});
export type FilterOperator = Contracts.FilterOperator;

/** Limits of spec part 8 (same object as the contracts' `Limits`). */
export const Limits: typeof Contracts.Limits = Object.freeze({
  maxDocumentBytes: 50 * 1024 * 1024,
  maxNestingDepth: 32,
  renderBudgetMs: 60_000,
  testKeyBatchCap: 10,
  defaultTake: 25,
  minTake: 1,
  maxTake: 200,
  jobIssuesStored: 100,
  viewUrlTtlSeconds: 7 * 24 * 60 * 60,
  webhookMaxAttempts: 5,
  webhookBackoffSeconds: Object.freeze([2, 4, 8, 16]),
  webhookAttemptTimeoutMs: 30_000,
  webhookInFlight: 16,
  secretRotationGraceHours: 24,
} as const);

/** The fields each list endpoint filters and sorts on (spec 4.1), default sort first; `contract-values.spec.ts` compares them with the contracts' LISTINGS. */
type ListingFields = {
  readonly [L in keyof typeof Contracts.LISTINGS]: {
    readonly filterable: readonly (keyof (typeof Contracts.LISTINGS)[L]['filterable'])[];
    readonly sortable: (typeof Contracts.LISTINGS)[L]['sortable'];
  };
};
export const LISTING_FIELDS: ListingFields = Object.freeze({
  templates: { filterable: ['name', 'project.guid', 'createdAt', 'updatedAt'], sortable: ['updatedAt', 'name', 'createdAt'] },
  templateVersions: { filterable: ['versionNumber', 'publishedAt', 'createdAt', 'updatedAt'], sortable: ['versionNumber', 'publishedAt', 'createdAt', 'updatedAt'] },
  documents: {
    filterable: ['documentName', 'template.guid', 'versionNumber', 'fileSizeBytes', 'pageCount', 'renderedAt', 'createdAt', 'updatedAt', 'environment', 'language'],
    sortable: ['renderedAt', 'documentName', 'versionNumber', 'fileSizeBytes', 'pageCount', 'renderDuration', 'environment', 'createdAt', 'updatedAt'],
  },
  fonts: { filterable: ['family', 'source'], sortable: ['family', 'source'] },
} as const);
