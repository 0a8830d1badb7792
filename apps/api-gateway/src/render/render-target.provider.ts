import type { Provider } from '@nestjs/common';
import { FontRepository, TemplateRepository } from '@docrender/persistence';
import { RenderTargetResolver } from '@docrender/rendering';

/**
 * The render use case's target resolution (libs/rendering) for the gateway's render, validate and enqueue endpoints:
 * the stored template and version (404s of spec 4.2), the requested language (400 ValidationError when the version
 * does not define it), the organisation's custom fonts.
 */
export const renderTargetProvider: Provider = {
  provide: RenderTargetResolver,
  useFactory: (templates: TemplateRepository, fonts: FontRepository) => new RenderTargetResolver(templates, fonts),
  inject: [TemplateRepository, FontRepository],
};
