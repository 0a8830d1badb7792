import { Injectable } from '@nestjs/common';
import { FontRepository, TemplateRepository } from '@docrender/persistence';
import { RenderTargetResolver } from '@docrender/rendering';

/**
 * The render use case's target resolution (libs/rendering) as the gateway's render, validate and enqueue endpoints
 * inject it: the stored template and version (404s of spec 4.2), the requested language (400 ValidationError when the
 * version does not define it), the organisation's custom fonts.
 */
@Injectable()
export class RenderTargetFactory extends RenderTargetResolver {
  constructor(templates: TemplateRepository, fonts: FontRepository) {
    super(templates, fonts);
  }
}
