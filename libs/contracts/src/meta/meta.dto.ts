import { ApiProperty } from '@nestjs/swagger';

/** Spec 2.13 version probe. */
export class VersionProbeDto {
  @ApiProperty({ description: 'Deployed build version, or `unknown`.', example: '0.1.0' }) version!: string;
}

/** Spec 2.13 preview image. */
export class PreviewImageDto {
  @ApiProperty({ description: 'Time-limited link to a PNG of the first page.' }) url!: string;
}
