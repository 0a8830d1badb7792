import { Inject, Injectable } from '@nestjs/common';
import { DomainError, ErrorCode, RateLimitCategory, type PreviewImageDto } from '@docrender/contracts';
import { LOGGER, type SignedUrlSigner } from '@docrender/platform';
import { FontRepository, OrganisationRepository, SignedLinkQuery, TemplateVersionRepository, type TemplateVersionRecord } from '@docrender/persistence';
import { BLOB_STORE, type BlobStore } from '@docrender/storage';
import type { Logger } from '@docrender/observability';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Caller } from '../auth/caller';
import { RateLimiter, type RateLimitHeaders } from '../rate-limit/rate-limiter';
import { PREVIEW_IMAGE_LINKS, type PreviewImageKey } from './preview-image-link';
import { TemplatesService } from './templates.service';
import { RenderServiceClient } from '@docrender/rendering';

/**
 * Spec 4.12. A version's preview image is a PNG of its first page with its sample data, made by the render service on
 * the first request (MessageName.RenderPreview) and kept in the blob store; its key is recorded on the version. The
 * answer is a time-limited signed link, never a null url: a version whose preview cannot be produced is 404 ImageNotFound.
 * Concurrent first requests for one version in this process share one render.
 */
@Injectable()
export class PreviewImageService {
  private readonly inFlight = new Map<string, Promise<string | null>>();

  constructor(
    private readonly templates: TemplatesService,
    private readonly versions: TemplateVersionRepository,
    private readonly fonts: FontRepository,
    private readonly signedLinks: SignedLinkQuery,
    private readonly organisations: OrganisationRepository,
    @Inject(PREVIEW_IMAGE_LINKS) private readonly signer: SignedUrlSigner<PreviewImageKey>,
    private readonly limiter: RateLimiter,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly renderService: RenderServiceClient,
  ) {}

  async previewUrl(caller: Caller, templateId: string, versionNumber: number): Promise<PreviewImageDto> {
    const version = await this.templates.version(caller, templateId, versionNumber);
    const stored = version.previewImageBlobKey !== null && (await this.blobs.stat(version.previewImageBlobKey)) !== null;
    if (!stored && (await this.generateOnce(caller, version)) === null) {
      throw new DomainError(ErrorCode.ImageNotFound, `version ${versionNumber} of template ${templateId} has no preview image`);
    }
    return { url: this.signer.sign({ templateId, versionNumber }) };
  }

  /**
   * The PNG behind a signed preview link, counted against the owning organisation's read limit. An invalid or expired
   * link is 401 Unauthorized; a version without a stored image is 404 ImageNotFound. A signed link carries no key, so
   * the 401 NotAuthenticated of a deleted organisation's keys cannot apply: its links answer 404 OrganizationNotFound.
   */
  async openSignedImage(
    templateId: string,
    versionNumber: number,
    expires: unknown,
    signature: unknown,
  ): Promise<{ stream: Readable; sizeBytes: number; headers: RateLimitHeaders }> {
    if (!this.signer.verify({ templateId, versionNumber }, expires, signature)) {
      throw new DomainError(ErrorCode.Unauthorized, 'the preview-image link is invalid or has expired');
    }
    const location = await this.signedLinks.findPreviewImage(templateId, versionNumber);
    if (!location) throw new DomainError(ErrorCode.ImageNotFound, `version ${versionNumber} of template ${templateId} has no preview image`);
    if ((await this.organisations.findById(location.organisationId))?.deletedAt !== null) {
      throw new DomainError(ErrorCode.OrganizationNotFound, `the organisation that owned template ${templateId} no longer exists`);
    }
    const headers = await this.limiter.acquire(location.organisationId, RateLimitCategory.Read);
    const info = location.blobKey === null ? null : await this.blobs.stat(location.blobKey);
    if (location.blobKey === null || info === null) {
      throw new DomainError(ErrorCode.ImageNotFound, `version ${versionNumber} of template ${templateId} has no preview image`);
    }
    return { stream: await this.blobs.getStream(location.blobKey), sizeBytes: info.sizeBytes, headers };
  }

  private generateOnce(caller: Caller, version: TemplateVersionRecord): Promise<string | null> {
    const running = this.inFlight.get(version.id);
    if (running) return running;
    const generation = this.generate(caller, version).finally(() => this.inFlight.delete(version.id));
    this.inFlight.set(version.id, generation);
    return generation;
  }

  /** Renders and records the preview; the blob key, or null when the render service could not produce one. */
  private async generate(caller: Caller, version: TemplateVersionRecord): Promise<string | null> {
    const parsed = parseContent(version);
    if (!parsed) {
      this.logger.warn('preview image not generated: the stored version is not valid JSON', { templateId: version.templateId, versionNumber: version.versionNumber });
      return null;
    }
    const outputBlobKey = `organisations/${caller.organisationId}/previews/${version.templateId}/${version.versionNumber}-${randomUUID()}.png`;
    // The one render budget and reply grace, as for a document; no answer is 500 ExternalServiceError.
    const result = await this.renderService.previewImage({
      requestId: randomUUID(),
      organisationId: caller.organisationId,
      ...parsed,
      customFonts: await this.fonts.listCustomFontRefs(caller.organisationId),
      outputBlobKey,
    });
    if (result.outcome !== 'rendered' || result.png === null) {
      this.logger.info('preview image could not be produced', {
        templateId: version.templateId,
        versionNumber: version.versionNumber,
        outcome: result.outcome,
        failure: result.failure?.message,
        issues: result.issues.map((i) => i.type).join(', '),
      });
      return null;
    }
    await this.versions.setPreviewImage(version.templateId, version.versionNumber, result.png.blobKey);
    return result.png.blobKey;
  }
}

function parseContent(version: TemplateVersionRecord): { template: unknown; sampleData: unknown; translations: unknown } | null {
  try {
    return {
      template: JSON.parse(version.templateJson) as unknown,
      sampleData: JSON.parse(version.sampleData) as unknown,
      translations: version.translations === null ? null : (JSON.parse(version.translations) as unknown),
    };
  } catch {
    return null;
  }
}
