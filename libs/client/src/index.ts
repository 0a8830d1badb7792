// The public API of @docrender/client. Runtime values come from the contracts' decorator-free entry
// (`@docrender/contracts/values`, no NestJS); wire types are the contracts' own, as types.
export { DocrenderClient, DEFAULT_RENDER_TIMEOUT_MS, DEFAULT_TIMEOUT_MS, type DocrenderClientOptions } from './client/docrender-client';
export type { RequestOptions } from './http/http-transport';
export { DEFAULT_RETRY, parseRetryAfter, retryDelayMs, type RetryNotice, type RetryOptions } from './http/retry-policy';
export { DocrenderError } from './errors/docrender.error';
export {
  ApiError,
  AuthenticationError,
  BadRequestError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  RenderBlockedError,
  ServerError,
  UnprocessableEntityError,
  type ApiErrorDetails,
} from './errors/api.error';
export { ConnectionError, ResponseDecodeError, TimeoutError } from './errors/transport.error';
export { JobWaitTimeoutError } from './errors/job-wait.error';
export { environmentOfKey, PRODUCTION_KEY_IN_TEST_WARNING, type ClientWarning } from './keys/api-key-environment';
export { blockingIssues, isValid } from './issues/issue-gates';
export { pdfOf, type DocumentData, type RenderedPdf, type RenderOptions, type RenderPdfOptions, type StatelessRenderRequest, type VersionOption } from './resources/renders.resource';
export type { EnqueueOptions } from './resources/jobs.resource';
export type { TemplateListParams } from './resources/templates.resource';
export type { DocumentDownload } from './resources/documents.resource';
export type { ServiceStatus } from './resources/meta.resource';
export { DEFAULT_POLL_INTERVAL_MS, type WaitOptions } from './jobs/job-waiter';
export { listQuery, LISTING_FIELDS, type FilterField, type ListFilter, type ListingName, type ListParams, type SortField } from './listing/list-params';
export { paginate, PIN_FIELDS, type IterateOptions } from './listing/paginate';
export { readCallback, type CallbackHeaders, type ReadCallbackInput, type ReceivedCallback } from './webhooks/callback-reader';
export {
  DEFAULT_SIGNATURE_TOLERANCE_SECONDS,
  MalformedCallbackError,
  parseCallback,
  WebhookSignatureError,
  WebhookSignatureFailure,
  WebhookVerifier,
  type VerifyWebhookInput,
} from '@docrender/webhooks';
export {
  API_KEY_PREFIX,
  DocumentType,
  Environment,
  ErrorCode,
  FilterOperator,
  ISSUE_SEVERITY,
  IssueSeverity,
  JobState,
  Limits,
  RenderIssueType,
  RenderStatus,
  SortDirection,
  WEBHOOK_SECRET_PREFIX,
  WebhookEvent,
  WebhookHeader,
} from '@docrender/contracts/values';
export * from './wire/wire-types';
export { CLIENT_VERSION } from './version';
