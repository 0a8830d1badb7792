import { DomainError, ErrorCode } from '@docrender/contracts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const VERSION_NUMBER = /^[1-9]\d{0,8}$/;

/**
 * A path id that is a UUID, lower-cased; anything else names no resource and is 404 with the resource's code
 * (the same answer as an unknown or foreign id, spec 7.2).
 */
export function resourceId(raw: string, notFound: ErrorCode, what: string): string {
  if (!UUID.test(raw)) throw new DomainError(notFound, `${what} ${raw} not found`);
  return raw.toLowerCase();
}

/** A path template id: anything but a UUID is 404 TemplateNotFound. */
export function templateIdOf(raw: string): string {
  return resourceId(raw, ErrorCode.TemplateNotFound, 'template');
}

/**
 * A path version number (a positive integer of at most 9 digits); anything else is 404 VersionNotFound, or `notFound`
 * where the path names another resource (the signed preview-image link answers ImageNotFound).
 */
export function versionNumberOf(raw: string, templateId: string, notFound: ErrorCode = ErrorCode.VersionNotFound): number {
  if (!VERSION_NUMBER.test(raw)) throw new DomainError(notFound, `version ${raw} of template ${templateId} not found`);
  return Number(raw);
}
