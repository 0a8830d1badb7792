import { Module } from '@nestjs/common';
import { FontsController } from './fonts.controller';
import { FontsService } from './fonts.service';

/** Spec 4.18. */
@Module({ controllers: [FontsController], providers: [FontsService] })
export class FontsModule {}
