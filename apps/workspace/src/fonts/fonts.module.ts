import { Module } from '@nestjs/common';
import { FontRepository, TemplateVersionRepository } from '@docrender/persistence';
import { PersistenceModule } from '@docrender/platform';
import { FontsController } from './fonts.controller';

/** The fonts: the built-in and custom families, the templates using each, and owners' uploads. */
@Module({
  imports: [PersistenceModule.forFeature({ repositories: [FontRepository, TemplateVersionRepository] })],
  controllers: [FontsController],
})
export class FontsModule {}
