/**
 * HTTP error codes of spec 7.2, exactly as the spec spells them.
 * `Unauthorized` and `TooManyRequests` are our codes for the two rows where the spec requires none (401, 429).
 */
export enum ErrorCode {
  ValidationError = 'ValidationError',
  Unauthorized = 'Unauthorized',
  NotAuthenticated = 'NotAuthenticated',
  Forbidden = 'Forbidden',
  TemplateNotFound = 'TemplateNotFound',
  VersionNotFound = 'VersionNotFound',
  NoPublishedVersion = 'NoPublishedVersion',
  DocumentNotFound = 'DocumentNotFound',
  OrganizationNotFound = 'OrganizationNotFound',
  ImageNotFound = 'ImageNotFound',
  EntityNotFound = 'EntityNotFound',
  NotAcceptable = 'NotAcceptable',
  PdfDeleted = 'PdfDeleted',
  PayloadTooLarge = 'PayloadTooLarge',
  BindingError = 'BindingError',
  TooManyRequests = 'TooManyRequests',
  InternalError = 'InternalError',
  RenderTimeout = 'RenderTimeout',
  ExternalServiceError = 'ExternalServiceError',
  QueueFull = 'QueueFull',
}

/** The one code → HTTP status table (spec 7.2). Exhaustive by construction. */
export const ERROR_HTTP_STATUS: Record<ErrorCode, number> = {
  [ErrorCode.ValidationError]: 400,
  [ErrorCode.Unauthorized]: 401,
  [ErrorCode.NotAuthenticated]: 401,
  [ErrorCode.Forbidden]: 403,
  [ErrorCode.TemplateNotFound]: 404,
  [ErrorCode.VersionNotFound]: 404,
  [ErrorCode.NoPublishedVersion]: 404,
  [ErrorCode.DocumentNotFound]: 404,
  [ErrorCode.OrganizationNotFound]: 404,
  [ErrorCode.ImageNotFound]: 404,
  [ErrorCode.EntityNotFound]: 404,
  [ErrorCode.NotAcceptable]: 406,
  [ErrorCode.PdfDeleted]: 410,
  [ErrorCode.PayloadTooLarge]: 413,
  [ErrorCode.BindingError]: 422,
  [ErrorCode.TooManyRequests]: 429,
  [ErrorCode.InternalError]: 500,
  [ErrorCode.RenderTimeout]: 500,
  [ErrorCode.ExternalServiceError]: 500,
  [ErrorCode.QueueFull]: 503,
};
