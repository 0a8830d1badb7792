import { Module } from '@nestjs/common';
import { RetentionSweepService } from './retention-sweep.service';

/** The periodic retention sweep of stored PDFs (spec 3.3). */
@Module({ providers: [RetentionSweepService], exports: [RetentionSweepService] })
export class RetentionModule {}
