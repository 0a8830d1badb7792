/**
 * The wire types of the contract (`libs/contracts`), re-exported as types only: the SDK's methods take and return
 * exactly these shapes, and importing them costs nothing at runtime.
 */
export type {
  CallbackBody,
  CompletionCallbackDto,
  ErrorBodyDto,
  ErrorEnvelopeDto,
  FontFamilyDto,
  FontVariantDto,
  JobAcceptedDto,
  JobStatusDto,
  OrganisationStatsDto,
  PagedResult,
  PreviewImageDto,
  ProgressCallbackDto,
  RenderedDocumentDto,
  RenderEnvelopeDto,
  RenderIssue,
  RenderIssueDto,
  StoredDocumentDto,
  TemplateDto,
  TemplateVersionDto,
  TemplateVersionSummaryDto,
  ValidateResponseDto,
  VersionProbeDto,
} from '@docrender/contracts';
