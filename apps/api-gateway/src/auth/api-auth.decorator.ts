import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiResponse } from '@nestjs/swagger';
import { ErrorEnvelopeDto } from '@docrender/contracts';

/** OpenAPI for a bearer-key endpoint: the security scheme and its two 401 answers (spec 5.3). */
export function ApiBearerKey(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiBearerAuth(),
    ApiResponse({
      status: 401,
      type: ErrorEnvelopeDto,
      description: 'Unauthorized: the key is missing, malformed or invalid. NotAuthenticated: the key is well formed but has no organisation.',
    }),
  );
}
