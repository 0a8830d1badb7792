import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiParam, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ErrorEnvelopeDto, RenderEnvelopeDto, RenderRequestDto, StatelessRenderRequestDto, ValidateRequestDto, ValidateResponseDto } from '@docrender/contracts';

/** An answer with the error envelope (the render, validate and enqueue endpoints). */
export const errorResponse = (status: number, description: string) => ApiResponse({ status, type: ErrorEnvelopeDto, description });
/** An error envelope answer that carries Retry-After, whose meaning `retryAfter` describes. */
export const retryAfterResponse = (status: number, description: string, retryAfter: string) =>
  ApiResponse({ status, type: ErrorEnvelopeDto, description, headers: { 'Retry-After': { description: retryAfter, schema: { type: 'integer' } } } });
/** A 500 that may be an outage: ExternalServiceError carries Retry-After (issue 18, decision 0010). */
const serverError = (description: string) => retryAfterResponse(500, description, 'On ExternalServiceError: whole seconds after which a retry may succeed.');
/** The 422 of a sync render: the error envelope of a body that could not be bound, or the render envelope of a render that made no PDF. */
const bindingOrRenderEnvelope = (description: string) =>
  ApiResponse({
    status: 422,
    description,
    content: { 'application/json': { schema: { oneOf: [{ $ref: getSchemaPath(ErrorEnvelopeDto) }, { $ref: getSchemaPath(RenderEnvelopeDto) }] } } },
  });

const binding = errorResponse(422, 'BindingError: the body could not be parsed or bound (malformed JSON, wrong types, missing fields); the message names the field.');
/** Spec 4.2 and 4.5: the test-key batch cap and the language. */
export const testKeyCapOrLanguage = errorResponse(400, 'ValidationError: a test key with more than 10 documents, or a language the version does not define.');
const tooLarge = errorResponse(413, 'PayloadTooLarge: a document is over 50 MB of JSON, or the body is over the configured limit (counted after decompression).');
const templateNotFound = errorResponse(
  404,
  'TemplateNotFound (also for a template of another organisation), VersionNotFound, or NoPublishedVersion (latest form with nothing published).',
);

/**
 * Path parameters of the render, validate and enqueue endpoints. A value that cannot name a resource (an id that is not
 * a UUID, a version that is not a positive integer) is answered like an unknown one: 404 TemplateNotFound or
 * VersionNotFound.
 */
export const ApiTemplateIdParam = () => ApiParam({ name: 'templateId', format: 'uuid', description: 'Template id.' });
export const ApiVersionParam = () => ApiParam({ name: 'version', type: 'integer', description: 'Version number (a draft may be addressed this way).' });

const conformanceHeaderDoc = {
  description:
    "What the document asked to conform to and the result of the service's own checks: `PDF/A-3b; checks=passed`, `PDF/UA-1; checks=passed`, `PDF/A-3b, PDF/UA-1; checks=passed` (with `; e-invoice=<profile>` when it carries one), or `none` for a plain PDF. An output failing its checks is never returned (decisions 0032, 0038).",
  schema: { type: 'string' },
};

const pdfHeaders = {
  'Content-Disposition': { description: 'attachment with filename `<documentName>.pdf`', schema: { type: 'string' } },
  'X-Service-Document-Id': { description: 'Stored document id; omitted when persist=false.', schema: { type: 'string', format: 'uuid' } },
  'X-Service-Page-Count': { description: 'Number of pages.', schema: { type: 'integer' } },
  'X-Service-Render-Duration-Ms': { description: 'Render time in milliseconds.', schema: { type: 'integer' } },
  'X-Service-View-Url': { description: 'Signed download URL; omitted when persist=false.', schema: { type: 'string' } },
  'X-Service-Issue-Count': { description: 'Count of non-blocking issues; omitted when there are none.', schema: { type: 'integer' } },
  'X-Service-Conformance': conformanceHeaderDoc,
};

/** OpenAPI of spec 4.2 (single and batch render, JSON envelope or raw PDF). */
export function ApiRenderEndpoint(): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(RenderEnvelopeDto, ErrorEnvelopeDto),
    ApiBody({ type: RenderRequestDto }),
    ApiResponse({
      status: 200,
      description:
        'The render envelope for every outcome and batch size (Accept application/json or absent; correlate documents by documentIndex). ' +
        'With `Accept: application/pdf` (exactly; a wildcard does not count) and one document: the PDF, with the headers below.',
      content: {
        'application/json': { schema: { $ref: getSchemaPath(RenderEnvelopeDto) } },
        'application/pdf': { schema: { type: 'string', format: 'binary' } },
      },
      headers: pdfHeaders,
    }),
    testKeyCapOrLanguage,
    templateNotFound,
    errorResponse(406, 'NotAcceptable: Accept application/pdf with more than one document.'),
    tooLarge,
    bindingOrRenderEnvelope(
      'BindingError (error envelope): the body could not be bound, the message names the field. ' +
        'With Accept application/pdf: a blocked or failed render (or a credit stop) answers the render envelope, documents empty.',
    ),
    serverError('InternalError, or ExternalServiceError when a dependency is down (the render service cannot be reached, storage stayed down past the budget); retry after Retry-After.'),
  );
}

/** OpenAPI of spec 4.3. */
export function ApiStatelessRenderEndpoint(): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(RenderEnvelopeDto, ErrorEnvelopeDto),
    ApiBody({ type: StatelessRenderRequestDto }),
    ApiResponse({
      status: 200,
      description: 'The PDF; of the metadata headers only X-Service-Conformance. A test key watermarks it.',
      content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
      headers: { 'X-Service-Conformance': conformanceHeaderDoc },
    }),
    tooLarge,
    bindingOrRenderEnvelope(
      'BindingError (error envelope): malformed JSON, wrong types, or an invalid template DSL (the message names the JSON path). ' +
        'A render blocked by issues (or a credit stop) answers the render envelope.',
    ),
    serverError('RenderTimeout: the render took longer than the 60 s budget. InternalError, or ExternalServiceError (with Retry-After) when a dependency is down.'),
  );
}

/** OpenAPI of spec 4.4. */
export function ApiValidateEndpoint(): MethodDecorator {
  return applyDecorators(
    ApiBody({ type: ValidateRequestDto }),
    ApiResponse({
      status: 200,
      type: ValidateResponseDto,
      description:
        'Every issue a render would find, flat across the batch, each with its documentIndex (null for batch-wide issues). ' +
        'Valid for production when no issue is a Warning or an Error; for test when none is an Error. No credit is used.',
    }),
    templateNotFound,
    tooLarge,
    binding,
  );
}
