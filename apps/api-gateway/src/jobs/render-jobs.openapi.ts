import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiParam, ApiResponse } from '@nestjs/swagger';
import { EnqueueRequestDto, JobAcceptedDto, JobStatusDto } from '@docrender/contracts';
import { errorResponse, retryAfterResponse, testKeyCapOrLanguage } from '../render/render.openapi';

/** OpenAPI of spec 4.5. */
export function ApiEnqueueEndpoint(): MethodDecorator {
  return applyDecorators(
    ApiBody({ type: EnqueueRequestDto }),
    ApiResponse({
      status: 202,
      type: JobAcceptedDto,
      description:
        'The job is stored and will run: poll GET /v1/render/jobs/{jobId} or receive the signed callbacks at callbackUrl (see docs/webhooks.md). ' +
        'Size, depth, the test-key cap and the language were checked; an accepted job never fails later on payload size.',
    }),
    testKeyCapOrLanguage,
    errorResponse(404, 'TemplateNotFound (also for a template of another organisation), VersionNotFound, or NoPublishedVersion.'),
    errorResponse(413, 'PayloadTooLarge: a document is over 50 MB of JSON.'),
    errorResponse(
      422,
      'BindingError: the body could not be bound (documents, includeDocument), or callbackUrl is one the service would never call ' +
        '(not https, credentials in the URL, a loopback/private/link-local/unspecified/metadata address literal or localhost); the message names the field.',
    ),
    retryAfterResponse(
      500,
      'ExternalServiceError: the database or blob storage is down; nothing was accepted. RabbitMQ being down is not an error: the job is accepted (202) and published once it is back.',
      'Whole seconds after which a retry may succeed.',
    ),
    retryAfterResponse(503, 'QueueFull: the job queue is at capacity; back off and retry. Nothing was stored.', 'Whole seconds to wait before retrying.'),
  );
}

/** OpenAPI of spec 4.6. */
export function ApiJobStatusEndpoint(): MethodDecorator {
  return applyDecorators(
    ApiResponse({
      status: 200,
      type: JobStatusDto,
      description:
        'state pending (queued or rendering), completed (produced documents: ok, partial or insufficient_credit) or failed (produced nothing). ' +
        'status is null while pending. Counts are exact; at most the first 100 issues are returned (the completion callback carries all). ' +
        'Poll every couple of seconds until state is not pending; treat an unrecognised state as terminal.',
    }),
    ApiParam({ name: 'jobId', format: 'uuid', description: 'The jobId of the enqueue response.' }),
    errorResponse(404, 'EntityNotFound: no such job in the organisation of the key (also for a jobId that is not a UUID).'),
  );
}
