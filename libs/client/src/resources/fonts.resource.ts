import type { FontFamilyDto, PagedResult } from '@docrender/contracts';
import type { RequestOptions } from '../http/http-transport';
import { readPaged } from '../http/response-body';
import { SHAPES } from '../http/response-shapes';
import { listQuery, type ListParams } from '../listing/list-params';
import { paginate } from '../listing/paginate';
import { getJson, type ClientContext } from './client-context';

/** Font families available to templates (spec 4.18; the record is this service's, docs/api.md). */
export class FontsResource {
  constructor(private readonly context: ClientContext) {}

  list(params: ListParams<'fonts'> = {}, options: RequestOptions = {}): Promise<PagedResult<FontFamilyDto>> {
    return getJson(this.context, { path: '/v1/fonts', query: listQuery(params) }, options, (response, request) => readPaged<FontFamilyDto>(response, request, SHAPES.fontFamily));
  }

  /** Every font family matching `params`, page after page. */
  listAll(params: ListParams<'fonts'> = {}, options: RequestOptions = {}): AsyncGenerator<FontFamilyDto, void, undefined> {
    return paginate((skip) => this.list({ ...params, skip }, options), params.skip ?? 0);
  }
}
