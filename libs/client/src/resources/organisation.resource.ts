import type { OrganisationStatsDto } from '@docrender/contracts';
import type { RequestOptions } from '../http/http-transport';
import { readJson } from '../http/response-body';
import { SHAPES } from '../http/response-shapes';
import { getJson, type ClientContext } from './client-context';

/** Organisation usage and credit (spec 4.16). */
export class OrganisationResource {
  constructor(private readonly context: ClientContext) {}

  /** The key's organisation: billing period, page and token allowance and use. 401 NotAuthenticated without one. */
  stats(options: RequestOptions = {}): Promise<OrganisationStatsDto> {
    return getJson(this.context, { path: '/v1/organisation/stats' }, options, (response, request) =>
      readJson<OrganisationStatsDto>(response, request, SHAPES.organisationStats),
    );
  }
}
