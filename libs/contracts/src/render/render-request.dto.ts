import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** One document's data as it appears in the request examples of the OpenAPI document. */
const EXAMPLE_DOCUMENT = { number: 'INV-2026-00042', issueDate: '2026-11-02', customer: { name: 'Globex Corporation' }, lines: [{ description: 'Consulting', quantity: 2, unitPrice: 120 }] };
/** A document's data: any JSON object (the template's bindings decide which members matter). */
const DOCUMENT_DATA = { type: 'object', additionalProperties: true } as const;

// The render bodies below are described here for the OpenAPI document only: the gateway never parses them into these
// classes. It scans them with its own reader (apps/api-gateway/src/request-body: sizes, depth, members, the errors of
// spec 7.2 with their messages), so there are no validation decorators here to disagree with it.

/** Spec 4.2 body. */
export class RenderRequestDto {
  @ApiProperty({ type: 'array', items: DOCUMENT_DATA, description: 'One object per document, always an array.', example: [EXAMPLE_DOCUMENT] })
  documents!: Record<string, unknown>[];

  @ApiPropertyOptional({ type: Boolean, description: 'Default false. Each rendered document carries its PDF in documentBase64 (progress callbacks, for a job).' })
  includeDocument?: boolean;
}

/** Spec 4.4 body. */
export class ValidateRequestDto {
  @ApiProperty({ type: 'array', items: DOCUMENT_DATA, description: 'One object per document; a batch is validated in one call.', example: [EXAMPLE_DOCUMENT] })
  documents!: Record<string, unknown>[];
}

/** Spec 4.5 body. */
export class EnqueueRequestDto extends RenderRequestDto {
  @ApiProperty({
    format: 'uri',
    description:
      'Publicly reachable https URL that receives the signed callbacks (see the callbacks of this operation and docs/webhooks.md). Refused with 422 BindingError at enqueue: ' +
      'http (unless the installation sets EGRESS_ALLOW_HTTP), a user name or password in the URL, and an address literal ' +
      'that is not public (loopback incl. localhost, private, link-local, unspecified: unless EGRESS_ALLOW_PRIVATE; cloud ' +
      'metadata: always). Host names are resolved and checked again at each delivery.',
    example: 'https://example.com/hooks/render?token=abc',
  })
  callbackUrl!: string;
}

/** Spec 4.3 body. */
export class StatelessRenderRequestDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The template DSL itself (docs/template-dsl.md).',
    example: { dsl: 1, name: 'Greeting', body: [{ type: 'text', id: 'hello', text: 'Hello {{ name }}' }] },
  })
  template!: Record<string, unknown>;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Document data.', example: { name: 'Ada' } })
  data!: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Translation strings per language.' })
  translations?: Record<string, unknown>;
}
