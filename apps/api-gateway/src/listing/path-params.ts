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

/** A path version number (a positive integer); anything else is 404 VersionNotFound. */
export function versionNumberOf(raw: string, templateId: string): number {
  if (!VERSION_NUMBER.test(raw)) throw new DomainError(ErrorCode.VersionNotFound, `version ${raw} of template ${templateId} not found`);
  return Number(raw);
}
