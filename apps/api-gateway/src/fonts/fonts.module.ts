import { Module } from '@nestjs/common';
import { FontRepository } from '@docrender/persistence';
import { queryProvider } from '../listing/query-provider';
import { FontsController } from './fonts.controller';
import { FontsService } from './fonts.service';

/** Spec 4.18. */
@Module({ controllers: [FontsController], providers: [FontsService, queryProvider(FontRepository)] })
export class FontsModule {}
