import type { PagedResult, PreviewImageDto, TemplateDto, TemplateVersionDto, TemplateVersionSummaryDto } from '@docrender/contracts';
import type { RequestOptions } from '../http/http-transport';
import { readJson, readPaged } from '../http/response-body';
import { SHAPES } from '../http/response-shapes';
import { listQuery, type ListParams } from '../listing/list-params';
import { paginate, pinned, type IterateOptions } from '../listing/paginate';
import { getJson, segment, timeoutOf, type ClientContext } from './client-context';

export type TemplateListParams = ListParams<'templates'> & {
  /** Only the templates of this project (`/v1/projects/{projectId}/templates`; 404 EntityNotFound for another's). */
  projectId?: string;
};

/** Templates and versions of spec 4.7–4.12. Reads are retried on transient failures; the PATCH never is. */
export class TemplatesResource {
  constructor(private readonly context: ClientContext) {}

  /** One page of templates. */
  list(params: TemplateListParams = {}, options: RequestOptions = {}): Promise<PagedResult<TemplateDto>> {
    const { projectId, ...listing } = params;
    const path = projectId === undefined ? '/v1/templates' : `/v1/projects/${segment(projectId)}/templates`;
    return getJson(this.context, { path, query: listQuery(listing) }, options, (response, request) => readPaged<TemplateDto>(response, request, SHAPES.template));
  }

  /** Every template matching `params`, page after page (spec 4.1 paging; `pin` keeps the set stable). */
  listAll(params: TemplateListParams = {}, options: IterateOptions & RequestOptions = {}): AsyncGenerator<TemplateDto, void, undefined> {
    const { projectId, ...listing } = params;
    const fixed = pinned('templates', listing, options);
    return paginate((skip) => this.list({ ...fixed, projectId, skip }, options), params.skip ?? 0);
  }

  get(templateId: string, options: RequestOptions = {}): Promise<TemplateDto> {
    return getJson(this.context, { path: `/v1/templates/${segment(templateId)}` }, options, (response, request) => readJson<TemplateDto>(response, request, SHAPES.template));
  }

  /** One page of a template's version summaries (no templateJson, no sampleData). */
  listVersions(templateId: string, params: ListParams<'templateVersions'> = {}, options: RequestOptions = {}): Promise<PagedResult<TemplateVersionSummaryDto>> {
    return getJson(this.context, { path: `/v1/templates/${segment(templateId)}/versions`, query: listQuery(params) }, options, (response, request) =>
      readPaged<TemplateVersionSummaryDto>(response, request, SHAPES.versionSummary),
    );
  }

  /** Every version summary of a template, page after page. */
  listAllVersions(
    templateId: string,
    params: ListParams<'templateVersions'> = {},
    options: IterateOptions & RequestOptions = {},
  ): AsyncGenerator<TemplateVersionSummaryDto, void, undefined> {
    const fixed = pinned('templateVersions', params, options);
    return paginate((skip) => this.listVersions(templateId, { ...fixed, skip }, options), params.skip ?? 0);
  }

  /**
   * A full version with templateJson and sampleData (JSON text; decode with JSON.parse). `'latest'` is the newest
   * published one (404 NoPublishedVersion when there is none); a number addresses any version, drafts included.
   */
  getVersion(templateId: string, versionNumber: number | 'latest', options: RequestOptions = {}): Promise<TemplateVersionDto> {
    return getJson(this.context, { path: `/v1/templates/${segment(templateId)}/versions/${segment(versionNumber)}` }, options, (response, request) =>
      readJson<TemplateVersionDto>(response, request, SHAPES.version),
    );
  }

  /** Sets (or with null clears) a version's document-name template; answers the updated version. A write: never retried. */
  updateDocumentNameTemplate(templateId: string, versionNumber: number, documentNameTemplate: string | null, options: RequestOptions = {}): Promise<TemplateVersionDto> {
    return this.context.transport.send(
      {
        method: 'PATCH',
        path: `/v1/templates/${segment(templateId)}/versions/${segment(versionNumber)}/document-name-template`,
        json: { documentNameTemplate },
        accept: 'application/json',
        retryable: false,
        timeoutMs: timeoutOf(options, this.context.readTimeoutMs),
        signal: options.signal,
      },
      (response, request) => readJson<TemplateVersionDto>(response, request, SHAPES.version),
    );
  }

  /**
   * A time-limited link to a PNG of the version's first page with its sample data. The first request for a version may
   * take up to the render budget; 404 ImageNotFound when no preview can be made.
   */
  getPreviewImage(templateId: string, versionNumber: number, options: RequestOptions = {}): Promise<PreviewImageDto> {
    return getJson(
      this.context,
      { path: `/v1/templates/${segment(templateId)}/versions/${segment(versionNumber)}/preview-image` },
      { ...options, timeoutMs: options.timeoutMs ?? this.context.renderTimeoutMs },
      (response, request) => readJson<PreviewImageDto>(response, request, SHAPES.previewImage),
    );
  }
}
