import { createHmac } from 'node:crypto';
import { Limits } from '@docrender/contracts';
import { loadSettings, setting, viewUrlSettings } from '@docrender/config';

/**
 * The gateway's port, read only to default PUBLIC_BASE_URL the way the gateway does (one-process mode shares the
 * environment; a separate worker process needs PUBLIC_BASE_URL set).
 */
const gatewayPort = setting.int('PORT', 'HTTP port of the API gateway (and of the one-process mode).', 3000, { min: 1, max: 65535 });

/**
 * Spec 2.4 / 2.10 viewUrl of a document a job stored: `<PUBLIC_BASE_URL>/v1/documents/<id>/file?expires=<unix>&signature=<hmac>`,
 * valid 7 days from when the callback is generated. The same link format and key (VIEW_URL_SECRET) as the gateway's
 * ViewUrlSigner (apps/api-gateway/src/documents), which verifies it on download; the two must stay identical.
 */
export class DocumentViewUrl {
  private readonly base: string;

  constructor(private readonly config: { publicBaseUrl: string; secret: string }) {
    this.base = config.publicBaseUrl.replace(/\/+$/, '');
  }

  static fromEnv(env: NodeJS.ProcessEnv = process.env): DocumentViewUrl {
    const settings = loadSettings(viewUrlSettings, env);
    return new DocumentViewUrl({
      publicBaseUrl: settings.publicBaseUrl ?? `http://localhost:${gatewayPort.parse(env[gatewayPort.env])}`,
      secret: settings.secret,
    });
  }

  sign(documentId: string, now: Date = new Date()): string {
    const path = `/v1/documents/${encodeURIComponent(documentId)}/file`;
    const expires = Math.floor(now.getTime() / 1000) + Limits.viewUrlTtlSeconds;
    const signature = createHmac('sha256', this.config.secret).update(`${path}\n${expires}`, 'utf8').digest().toString('base64url');
    return `${this.base}${path}?expires=${expires}&signature=${signature}`;
  }
}
