import type { RenderEnvelopeDto } from '@docrender/contracts';
import { apiErrorForStatus, type ApiError, type ApiErrorDetails } from '../errors/api.error';
import { parseRetryAfter } from './retry-policy';

const MESSAGE_SNIPPET = 300;

/**
 * The typed exception for an HTTP error answer (spec 7.2, 7.5). Reads the body: the error envelope
 * `{ error: { code, message, errorId? } }`, a render envelope (422 of a raw-PDF or stateless render), or anything else
 * (the plain-text 503 of the status probe, a proxy's HTML page), which leaves `code` null.
 */
export async function apiErrorOf(response: Response, request: string): Promise<ApiError> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? text : (JSON.parse(text) as unknown);
  } catch {
    // not JSON: keep the text
  }
  const envelope = errorEnvelope(body);
  const details: ApiErrorDetails = {
    status: response.status,
    code: envelope?.code ?? null,
    serviceMessage: envelope?.message ?? (typeof body === 'string' && body.trim() !== '' ? snippet(body) : defaultMessage(response, body)),
    errorId: envelope?.errorId ?? null,
    request,
    body,
  };
  return apiErrorForStatus(details, isRenderEnvelope(body) ? body : null, parseRetryAfter(response.headers.get('retry-after')));
}

function errorEnvelope(body: unknown): { code: string; message: string; errorId: string | null } | null {
  if (!isObject(body) || !isObject(body.error)) return null;
  const { code, message, errorId } = body.error;
  if (typeof code !== 'string') return null;
  return { code, message: typeof message === 'string' ? message : '', errorId: typeof errorId === 'string' ? errorId : null };
}

function isRenderEnvelope(body: unknown): body is RenderEnvelopeDto {
  return isObject(body) && typeof body.status === 'string' && Array.isArray(body.issues) && Array.isArray(body.documents);
}

function defaultMessage(response: Response, body: unknown): string {
  if (isRenderEnvelope(body)) return typeof body.message === 'string' ? body.message : `render ${body.status}`;
  return response.statusText || `HTTP ${response.status}`;
}

function snippet(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > MESSAGE_SNIPPET ? `${oneLine.slice(0, MESSAGE_SNIPPET)}…` : oneLine;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
