import type { PagedResult } from '@docrender/contracts';
import { ResponseDecodeError } from '../errors/transport.error';

/** The JSON type a field must have; `?` admits null as well. */
export type FieldKind = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'string?' | 'number?';

/** The fields an answer must have for the SDK to hand it on; other fields pass unchecked. */
export type ResponseShape = Readonly<Record<string, FieldKind>>;

/**
 * Reads a JSON success answer and checks the fields `shape` names. A body that is not JSON, not an object, or lacks
 * one of those fields throws ResponseDecodeError (spec 7.5: undecodable success bodies have their own exception type).
 */
export async function readJson<T>(response: Response, request: string, shape: ResponseShape): Promise<T> {
  const text = await response.text();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ResponseDecodeError(request, response.status, response.headers.get('content-type'), `the body is not JSON: ${describe(text)}`, error);
  }
  const problem = shapeProblem(value, shape);
  if (problem !== null) throw new ResponseDecodeError(request, response.status, response.headers.get('content-type'), problem);
  return value as T;
}

/** Reads a paged result (spec 2.1) and checks each item against `itemShape`. */
export async function readPaged<T>(response: Response, request: string, itemShape: ResponseShape): Promise<PagedResult<T>> {
  const page = await readJson<PagedResult<T>>(response, request, PAGED_RESULT_SHAPE);
  page.items.forEach((item, i) => {
    const problem = shapeProblem(item, itemShape);
    if (problem !== null) throw new ResponseDecodeError(request, response.status, response.headers.get('content-type'), `items[${i}]: ${problem}`);
  });
  return page;
}

const PAGED_RESULT_SHAPE: ResponseShape = { items: 'array', total: 'number', skip: 'number', take: 'number' };

/** Reads a PDF success answer: Content-Type application/pdf and a `%PDF-` header within the first 1024 bytes. */
export async function readPdf(response: Response, request: string): Promise<Buffer> {
  assertPdfContentType(response, request);
  const bytes = Buffer.from(await response.arrayBuffer());
  if (!bytes.subarray(0, 1024).includes('%PDF-')) {
    throw new ResponseDecodeError(request, response.status, response.headers.get('content-type'), 'the body is not a PDF (no %PDF- header)');
  }
  return bytes;
}

export function assertPdfContentType(response: Response, request: string): void {
  const contentType = response.headers.get('content-type');
  if (!contentType?.toLowerCase().startsWith('application/pdf')) {
    throw new ResponseDecodeError(request, response.status, contentType, `expected application/pdf, got ${contentType ?? 'no Content-Type'}`);
  }
}

function shapeProblem(value: unknown, shape: ResponseShape): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'the body is not a JSON object';
  const record = value as Record<string, unknown>;
  for (const [field, kind] of Object.entries(shape)) {
    if (!fits(record[field], kind)) return `field ${field} is not ${kind.endsWith('?') ? `${kind.slice(0, -1)} or null` : kind}`;
  }
  return null;
}

function fits(value: unknown, kind: FieldKind): boolean {
  switch (kind) {
    case 'string':
    case 'number':
    case 'boolean':
      return typeof value === kind;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'string?':
      return value === null || typeof value === 'string';
    case 'number?':
      return value === null || typeof value === 'number';
  }
}

function describe(text: string): string {
  if (text === '') return 'empty body';
  const oneLine = text.replace(/\s+/g, ' ');
  return `'${oneLine.length > 80 ? `${oneLine.slice(0, 80)}…` : oneLine}'`;
}
