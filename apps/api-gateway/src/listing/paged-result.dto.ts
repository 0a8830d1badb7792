import { ApiProperty } from '@nestjs/swagger';
import { PagedResult } from '@docrender/contracts';

type Constructor<T> = new () => T;

/** A concrete paged-result schema (spec 2.1) of one item type, for OpenAPI. */
export function pagedResultOf<T>(item: Constructor<T>, name: string): Constructor<PagedResult<T>> {
  class Page extends PagedResult<T> {
    @ApiProperty({ type: [item], description: 'The records of this page.' })
    declare items: T[];
  }
  Object.defineProperty(Page, 'name', { value: name });
  return Page;
}
