import { Module } from '@nestjs/common';
import { renderApiSettings, Settings } from '@docrender/config';
import { RENDER_API_SETTINGS } from './request-body.tokens';
import { RenderBodyParser } from './render-body.parser';

/**
 * The gateway's request bodies (render-body.parser.ts) for every module with a JSON body: render, validate,
 * stateless render, async enqueue, the document-name PATCH. RENDER_API_* settings are read at start.
 */
@Module({
  providers: [{ provide: RENDER_API_SETTINGS, useFactory: (settings: Settings) => settings.get(renderApiSettings), inject: [Settings] }, RenderBodyParser],
  exports: [RENDER_API_SETTINGS, RenderBodyParser],
})
export class RequestBodyModule {}
