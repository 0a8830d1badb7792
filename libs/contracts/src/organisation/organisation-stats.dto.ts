import { ApiProperty } from '@nestjs/swagger';

/** Spec 2.12. */
export class OrganisationStatsDto {
  @ApiProperty() organisationName!: string;
  @ApiProperty({ format: 'date-time' }) periodStart!: string;
  @ApiProperty({ format: 'date-time' }) periodEnd!: string;
  @ApiProperty({ description: 'Plan tier (free text set at provisioning).' }) tier!: string;
  @ApiProperty({ description: 'Page allowance of the tier.' }) includedRendersPerMonth!: number;
  @ApiProperty() pagesUsedThisPeriod!: number;
  @ApiProperty({ description: 'Pages remaining, floored at 0.' }) pagesAvailable!: number;
  @ApiProperty() includedTokensPerMonth!: number;
  @ApiProperty() tokensUsedThisPeriod!: number;
  @ApiProperty() tokensAvailable!: number;
  @ApiProperty() userCount!: number;
}
