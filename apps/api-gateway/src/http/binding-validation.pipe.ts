import { ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError, ErrorCode } from '@docrender/contracts';

/** `documents[0].name: must be a string` — the JSON path of the first problem of each field. */
function describe(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((e) => {
    const path = parent === '' ? e.property : /^\d+$/.test(e.property) ? `${parent}[${e.property}]` : `${parent}.${e.property}`;
    const own = e.constraints ? [`${path}: ${Object.values(e.constraints)[0]}`] : [];
    return [...own, ...describe(e.children ?? [], path)];
  });
}

/**
 * Body, query and path binding (spec 7.2 422 BindingError): wrong types, missing required fields and unknown
 * shapes are rejected with a message naming each field. Unknown body properties are not errors (forward compatible).
 */
export function createBindingValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: false,
    forbidUnknownValues: false,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new DomainError(ErrorCode.BindingError, describe(errors).join('; ') || 'request could not be bound'),
  });
}
