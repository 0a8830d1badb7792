import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';

/** Path of spec 4.6. */
export class JobPathDto {
  @ApiProperty({ format: 'uuid', description: 'The jobId of the enqueue response.' })
  @IsUUID('all', { message: 'must be a UUID' })
  jobId!: string;
}
