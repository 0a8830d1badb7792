import { Module } from '@nestjs/common';
import { FontRepository } from '@docrender/persistence';
import { PersistenceModule } from '@docrender/platform';
import { FontsController } from './fonts.controller';
import { FontsService } from './fonts.service';

/** Spec 4.18. */
@Module({ imports: [PersistenceModule.forFeature({ repositories: [FontRepository] })], controllers: [FontsController], providers: [FontsService] })
export class FontsModule {}
