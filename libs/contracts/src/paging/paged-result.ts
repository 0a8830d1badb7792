import { ApiProperty } from '@nestjs/swagger';

/** Spec 2.1, the result of every list endpoint. */
export class PagedResult<T> {
  items!: T[];

  @ApiProperty({ description: 'Count of all records matching the filters, independent of skip/take.' })
  total!: number;

  @ApiProperty({ description: 'Offset actually applied.' })
  skip!: number;

  @ApiProperty({ description: 'Page size actually applied after clamping to 1..200.' })
  take!: number;
}
