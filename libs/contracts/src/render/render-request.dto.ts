import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMinSize, IsArray, IsBoolean, IsObject, IsOptional, IsString } from 'class-validator';

/** One document's data as it appears in the request examples of the OpenAPI document. */
const EXAMPLE_DOCUMENT = { number: 'INV-2026-00042', issueDate: '2026-11-02', customer: { name: 'Globex Corporation' }, lines: [{ description: 'Consulting', quantity: 2, unitPrice: 120 }] };
/** A document's data: any JSON object (the template's bindings decide which members matter). */
const DOCUMENT_DATA = { type: 'object', additionalProperties: true } as const;

/** Spec 4.2 body. */
export class RenderRequestDto {
  @ApiProperty({ type: 'array', items: DOCUMENT_DATA, description: 'One object per document, always an array.', example: [EXAMPLE_DOCUMENT] })
  @IsArray({ message: 'documents must be an array of objects' })
  @ArrayMinSize(1, { message: 'documents must contain at least one document' })
  @IsObject({ each: true, message: 'documents[] entries must be JSON objects' })
  documents!: Record<string, unknown>[];

  @ApiPropertyOptional({ type: Boolean, description: 'Default false. Each rendered document carries its PDF in documentBase64 (progress callbacks, for a job).' })
  @IsOptional()
  @IsBoolean({ message: 'includeDocument must be a boolean' })
  includeDocument?: boolean;
}

/** Spec 4.4 body. */
export class ValidateRequestDto {
  @ApiProperty({ type: 'array', items: DOCUMENT_DATA, description: 'One object per document; a batch is validated in one call.', example: [EXAMPLE_DOCUMENT] })
  @IsArray({ message: 'documents must be an array of objects' })
  @ArrayMinSize(1, { message: 'documents must contain at least one document' })
  @IsObject({ each: true, message: 'documents[] entries must be JSON objects' })
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
  @IsString({ message: 'callbackUrl is required and must be a string' })
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
  @IsObject({ message: 'template is required and must be a JSON object' })
  template!: Record<string, unknown>;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Document data.', example: { name: 'Ada' } })
  @IsObject({ message: 'data is required and must be a JSON object' })
  data!: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Translation strings per language.' })
  @IsOptional()
  @IsObject({ message: 'translations must be a JSON object' })
  @Type(() => Object)
  translations?: Record<string, unknown>;
}
