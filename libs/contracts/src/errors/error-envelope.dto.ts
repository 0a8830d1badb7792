import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ErrorCode } from './error-code';

export class ErrorBodyDto {
  @ApiProperty({ enum: ErrorCode, description: 'Stable code, safe to switch on.' })
  code!: ErrorCode;

  @ApiProperty({ description: 'Human-readable; may change; not for parsing.' })
  message!: string;

  @ApiPropertyOptional({ description: 'Set on 500 InternalError: the id under which the cause was logged.' })
  errorId?: string;
}

/** Spec 7.1: `{ "error": { "code", "message" } }`. */
export class ErrorEnvelopeDto {
  @ApiProperty({ type: ErrorBodyDto })
  error!: ErrorBodyDto;
}
