import type { CustomFontRef, Environment } from '@docrender/contracts';

/** What every document of one render request is rendered with. */
export type RenderTarget = {
  organisationId: string;
  /** test: watermark, only Error issues block, no credit; production: Warning and Error block, credit per page. */
  environment: Environment;
  /** The template DSL (parsed). */
  template: unknown;
  /** The translations (parsed), or null. */
  translations: unknown;
  language: string | null;
  documentNameTemplate: string | null;
  /** The document name when the name template yields none. */
  fallbackDocumentName: string;
  customFonts: CustomFontRef[];
  /** The stored template and version rendered; null for a stateless render (4.3). */
  source: { templateId: string; versionNumber: number } | null;
};
