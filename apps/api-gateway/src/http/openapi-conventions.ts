import type { OpenAPIObject } from '@nestjs/swagger';
import type {
  CallbackObject,
  CallbacksObject,
  ContentObject,
  ExampleObject,
  HeadersObject,
  OperationObject,
  ParameterObject,
  PathItemObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ERROR_HTTP_STATUS, ErrorCode, WebhookEvent, WebhookHeader } from '@docrender/contracts';

/**
 * The parts of the OpenAPI document that hold for every operation alike, added after Nest has described the
 * controllers (decision 0014): the headers every answer carries, 403 on the operations a suspended organisation is
 * refused, `security: []` on the anonymous ones, an example per error code an answer names, the callbacks of the
 * enqueue operations, and the servers and licence of the document.
 */

const ERROR_ENVELOPE = '#/components/schemas/ErrorEnvelopeDto';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** What the error envelope says for each code, as the examples of the document show it. */
const EXAMPLE_MESSAGES: Record<ErrorCode, string> = {
  [ErrorCode.ValidationError]: 'a test key renders at most 10 documents per request, got 12',
  [ErrorCode.Unauthorized]: 'invalid API key',
  [ErrorCode.NotAuthenticated]: 'the API key has no associated organisation',
  [ErrorCode.Forbidden]: 'the organisation is suspended: it may read, but not render or change anything; contact the service operator',
  [ErrorCode.TemplateNotFound]: 'template 3f6c2a4e-8b1d-4c7a-9e2f-5a1b0c9d8e7f not found',
  [ErrorCode.VersionNotFound]: 'version 7 of template 3f6c2a4e-8b1d-4c7a-9e2f-5a1b0c9d8e7f not found',
  [ErrorCode.NoPublishedVersion]: 'template 3f6c2a4e-8b1d-4c7a-9e2f-5a1b0c9d8e7f has no published version',
  [ErrorCode.DocumentNotFound]: 'document 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d not found',
  [ErrorCode.OrganizationNotFound]: 'the organisation of this link no longer exists',
  [ErrorCode.ImageNotFound]: 'version 2 of template 3f6c2a4e-8b1d-4c7a-9e2f-5a1b0c9d8e7f has no preview image',
  [ErrorCode.EntityNotFound]: 'job 0d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f4a not found',
  [ErrorCode.NotAcceptable]: 'Accept: application/pdf answers one document; the request has 3 (use JSON for a batch)',
  [ErrorCode.PdfDeleted]: 'the PDF of document 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d was purged by retention; its metadata remains',
  [ErrorCode.PayloadTooLarge]: 'documents[0] is larger than 50 MB of JSON',
  [ErrorCode.BindingError]: 'documents must be an array of objects',
  [ErrorCode.TooManyRequests]: 'rate limit of 300 render requests per 60 s reached; retry after 4 s',
  [ErrorCode.InternalError]: 'internal error; quote errorId when reporting it',
  [ErrorCode.RenderTimeout]: 'the render took longer than the 60 s budget',
  [ErrorCode.ExternalServiceError]: 'the render service cannot be reached; retry later',
  [ErrorCode.QueueFull]: 'the job queue is at capacity; back off and retry',
};

const REQUEST_ID: HeadersObject = {
  'X-Request-Id': {
    description: 'The id of this request in the service logs: the client’s own `X-Request-Id` when short and plain, a new UUID otherwise.',
    schema: { type: 'string' },
  },
};

const RATE_LIMIT: HeadersObject = {
  'X-RateLimit-Limit': { description: 'Requests allowed per sliding 60 s window in this operation’s category.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
};

/** The example error envelopes of one answer: one per code its description names (every code of the status when none). */
function errorExamples(status: number, description: string): Record<string, ExampleObject> {
  const ofStatus = Object.values(ErrorCode).filter((code) => ERROR_HTTP_STATUS[code] === status);
  const named = ofStatus.filter((code) => new RegExp(`\\b${code}\\b`).test(description));
  const codes = named.length > 0 ? named : ofStatus;
  return Object.fromEntries(
    codes.map((code) => {
      const error = code === ErrorCode.InternalError ? { code, message: EXAMPLE_MESSAGES[code], errorId: 'b1f0c2d3-e4a5-4b6c-8d7e-9f0a1b2c3d4e' } : { code, message: EXAMPLE_MESSAGES[code] };
      return [code, { summary: code, value: { error } }];
    }),
  );
}

const refersToEnvelope = (schema: SchemaObject | ReferenceObject | undefined): boolean =>
  schema !== undefined && ('$ref' in schema ? schema.$ref === ERROR_ENVELOPE : (schema.oneOf ?? []).some(refersToEnvelope));

/** Error answers are JSON whatever the operation's success type (the file endpoints answer their 404 as JSON too). */
function jsonErrorContent(content: ContentObject): ContentObject {
  const schema = Object.values(content).map((media) => media.schema).find(refersToEnvelope);
  return schema === undefined ? content : { 'application/json': { schema } };
}

/** What every operation but the probes may answer for its query string or path (request-text.middleware.ts). */
const BAD_QUERY = 'the query string is over 8 KiB, or a parameter or the path holds a NUL character or a lone surrogate';

function withConventions(path: string, method: string, operation: OperationObject): OperationObject {
  const anonymous = operation.security === undefined;
  const responses = { ...operation.responses } as Record<string, ResponseObject>;
  const rateLimited = responses['429'] !== undefined;
  if (!path.startsWith('/v1/meta/')) {
    const bound = responses['422'];
    responses['422'] =
      bound === undefined
        ? { description: `BindingError: ${BAD_QUERY}.`, content: { 'application/json': { schema: { $ref: ERROR_ENVELOPE } } } }
        : { ...bound, description: `${bound.description} Also BindingError when ${BAD_QUERY}.` };
  }
  // A suspended organisation may read but not render or write (spec 5.4): every authenticated POST and PATCH.
  if (!anonymous && (method === 'post' || method === 'patch')) {
    responses['403'] = { description: 'Forbidden: the organisation is suspended; it may still read. A new key does not help.', content: { 'application/json': { schema: { $ref: ERROR_ENVELOPE } } } };
  }
  for (const [status, response] of Object.entries(responses)) {
    const content = response.content === undefined ? undefined : jsonErrorContent(response.content);
    const json = content?.['application/json'];
    // A 422 that may also be a render envelope keeps its oneOf; the examples show its error-envelope side.
    if (json !== undefined && Number(status) >= 400 && refersToEnvelope(json.schema)) json.examples = errorExamples(Number(status), response.description ?? '');
    responses[status] = {
      ...response,
      headers: { ...REQUEST_ID, ...(rateLimited ? RATE_LIMIT : {}), ...response.headers },
      ...(content === undefined ? {} : { content }),
    };
  }
  return { ...operation, responses: sortedByStatus(responses), ...(anonymous ? { security: [] } : {}) };
}

const sortedByStatus = (responses: Record<string, ResponseObject>) => Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));

const deliveryHeader = (name: string, description: string, schema: SchemaObject): ParameterObject => ({ name, in: 'header', required: true, description, schema });

/** One callback of spec part 6: a signed POST of `schema` to the enqueue request's callbackUrl. */
function callback(events: WebhookEvent[], schema: string, summary: string): CallbackObject {
  return {
    '{$request.body#/callbackUrl}': {
      post: {
        summary,
        security: [],
        description:
          'No Authorization header: verify X-Service-Signature over the raw body before parsing it (docs/webhooks.md). ' +
          'Delivered at least once, possibly out of order; deduplicate by X-Service-Delivery.',
        parameters: [
          deliveryHeader(WebhookHeader.Signature, '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, possibly further `,v1=` values during a secret rotation.', {
            type: 'string',
            pattern: '^t=\\d+(,v\\d+=[0-9a-f]+)+$',
            example: 't=1795532400,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
          }),
          deliveryHeader(WebhookHeader.Event, 'What happened.', { type: 'string', enum: events }),
          deliveryHeader(WebhookHeader.Delivery, 'Stable across the retries of one delivery.', { type: 'string', format: 'uuid' }),
        ],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } },
        responses: {
          '200': { description: 'Any 2xx ends the retries; the answer body is ignored.' },
          '400': { description: 'The signature did not verify: the delivery is retried (up to 5 attempts), then abandoned.' },
        },
      },
    },
  };
}

const CALLBACKS: CallbacksObject = {
  progress: callback([WebhookEvent.Progress], 'ProgressCallbackDto', 'One document of the job rendered (render.progress)'),
  completion: callback([WebhookEvent.Completed, WebhookEvent.Failed], 'CompletionCallbackDto', 'The job finished (render.completed or render.failed)'),
};

/**
 * The finished document: the conventions above applied to every operation. Its one server is `publicBaseUrl`
 * (PUBLIC_BASE_URL) when the gateway has one, else the relative `/`, so "Try it out" works on whatever host serves it.
 */
export function applyOpenApiConventions(document: OpenAPIObject, publicBaseUrl: string | null = null): OpenAPIObject {
  const paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => {
      const next: PathItemObject = { ...item };
      for (const method of METHODS) {
        const operation = item[method];
        if (operation === undefined) continue;
        next[method] = withConventions(path, method, operation);
        if (method === 'post' && path.endsWith('/async')) next[method] = { ...next[method], callbacks: CALLBACKS };
      }
      return [path, next];
    }),
  );
  const bearer = document.components?.securitySchemes?.bearer;
  // An API key, not a JWT: the scheme names no bearerFormat.
  const securitySchemes =
    bearer === undefined || '$ref' in bearer
      ? document.components?.securitySchemes
      : { ...document.components?.securitySchemes, bearer: { type: bearer.type, scheme: bearer.scheme, description: bearer.description } };
  return {
    ...document,
    info: { ...document.info, license: { name: 'MIT', url: 'https://opensource.org/license/mit' } },
    servers: [
      publicBaseUrl === null
        ? { url: '/', description: 'The gateway serving this document: Swagger UI at /docs sends its requests to the address it was loaded from.' }
        : { url: publicBaseUrl, description: 'The gateway as clients reach it (PUBLIC_BASE_URL).' },
    ],
    paths,
    components: { ...document.components, securitySchemes },
  };
}
