import type { RenderEnvelopeDto } from '@docrender/contracts';
import { DocrenderError } from './docrender.error';

/** What every HTTP error answer carries (spec 7.1, 7.2). */
export type ApiErrorDetails = {
  /** The HTTP status of the answer. */
  status: number;
  /** The envelope's stable `code` (compare with `ErrorCode`), or null when the answer had none (plain text, a render envelope). */
  code: string | null;
  /** The service's human-readable message; may change, not for parsing. */
  serviceMessage: string;
  /** Set on 500 InternalError: the id under which the service logged the cause. */
  errorId: string | null;
  /** The request that was answered, e.g. `GET /v1/templates/…` (no query string, no key). */
  request: string;
  /** The decoded JSON body, or the body text when it was not JSON. */
  body: unknown;
};

/**
 * The service rejected a request with an HTTP error status (spec 7.2). Subclasses name the statuses a caller usually
 * handles apart; any other 4xx (406 NotAcceptable, 410 PdfDeleted, …) is an ApiError itself. Switch on `code`.
 */
export class ApiError extends DocrenderError {
  readonly status: number;
  readonly code: string | null;
  readonly serviceMessage: string;
  readonly errorId: string | null;
  readonly request: string;
  readonly body: unknown;

  constructor(details: ApiErrorDetails) {
    super(`${details.status}${details.code ? ` ${details.code}` : ''}: ${details.serviceMessage} (${details.request})`);
    this.status = details.status;
    this.code = details.code;
    this.serviceMessage = details.serviceMessage;
    this.errorId = details.errorId;
    this.request = details.request;
    this.body = details.body;
  }
}

/** 400: a business rule was violated (ValidationError: test-key batch over 10, unknown language, bad listing filter). */
export class BadRequestError extends ApiError {}

/** 401: the key is missing, malformed or invalid (Unauthorized), or has no organisation (NotAuthenticated). */
export class AuthenticationError extends ApiError {}

/** 403 Forbidden: the organisation may not do this; another key does not help. */
export class PermissionDeniedError extends ApiError {}

/** 404: the resource does not exist or belongs to another organisation (TemplateNotFound, DocumentNotFound, …). */
export class NotFoundError extends ApiError {}

/** 413 PayloadTooLarge: a document's JSON exceeds 50 MB (or the body exceeds the service's size limit). */
export class PayloadTooLargeError extends ApiError {}

/** 422: the body could not be bound (BindingError), or a raw-PDF render was blocked (see RenderBlockedError). */
export class UnprocessableEntityError extends ApiError {}

/**
 * 422 with a render envelope instead of an error envelope: a raw-PDF or stateless render was blocked by issues, failed
 * or found no credit (spec 4.2, 4.3). `envelope.issues` says why; `code` is null.
 */
export class RenderBlockedError extends UnprocessableEntityError {
  constructor(
    details: ApiErrorDetails,
    readonly envelope: RenderEnvelopeDto,
  ) {
    super(details);
  }
}

/** 429: the organisation's rate limit for this category is spent (spec 8). */
export class RateLimitError extends ApiError {
  constructor(
    details: ApiErrorDetails,
    /** Seconds to wait from the Retry-After header, or null when the answer had none. */
    readonly retryAfterSeconds: number | null,
  ) {
    super(details);
  }
}

/**
 * 5xx: InternalError, RenderTimeout, ExternalServiceError (500: a dependency of the service is down; retried for
 * reads), QueueFull (503), or a proxy's 502/504.
 */
export class ServerError extends ApiError {
  constructor(
    details: ApiErrorDetails,
    /** Seconds to wait from the Retry-After header (outages and QueueFull give one), or null when the answer had none. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(details);
  }
}

/**
 * The exception for an HTTP error answer, by its status (spec 7.2): a 422 that carried a render envelope is a
 * RenderBlockedError; a 429 or 5xx carries the seconds of its Retry-After header.
 */
export function apiErrorForStatus(details: ApiErrorDetails, renderEnvelope: RenderEnvelopeDto | null, retryAfterSeconds: number | null): ApiError {
  switch (details.status) {
    case 400:
      return new BadRequestError(details);
    case 401:
      return new AuthenticationError(details);
    case 403:
      return new PermissionDeniedError(details);
    case 404:
      return new NotFoundError(details);
    case 413:
      return new PayloadTooLargeError(details);
    case 422:
      return renderEnvelope ? new RenderBlockedError(details, renderEnvelope) : new UnprocessableEntityError(details);
    case 429:
      return new RateLimitError(details, retryAfterSeconds);
    default:
      return details.status >= 500 ? new ServerError(details, retryAfterSeconds) : new ApiError(details);
  }
}
