/** The workspace API (apps/workspace, /workspace/api): the session cookie authenticates, writes carry the CSRF token. */
export type Role = 'owner' | 'editor' | 'viewer';
export type User = { id: string; organisationId: string; email: string; name: string; role: Role };
export type Session = { user: User; csrfToken: string; expiresAt: string };
export type Template = {
  id: string;
  name: string;
  documentNameTemplate: string | null;
  latestVersionNumber: number | null;
  versionCount: number;
  updatedAt: string;
  updatedBy: string;
};
export type Version = {
  id: string;
  templateId: string;
  versionNumber: number;
  templateJson?: string;
  sampleData?: string;
  translations: string | null;
  documentNameTemplate: string | null;
  publishedAt: string | null;
  publishedBy: string | null;
  updatedAt: string;
};
export type Issue = { type: string; severity: string; description: string; elementId: string | null; path: string | null };
export type Preview = { outcome: 'rendered' | 'blocked' | 'failed' | 'invalid'; issues: Issue[]; pageCount: number; renderDurationMs: number | null; pdfBase64: string | null };
export type ApiKey = { id: string; environment: 'test' | 'production'; lookupPrefix: string; label: string | null; createdAt: string; revokedAt: string | null; lastUsedAt: string | null };
export type Member = { id: string; email: string; name: string; role: Role; createdAt: string };
export type Invitation = { id: string; email: string; role: Role; invitedBy: string; createdAt: string; expiresAt: string };
export type WebhookSecret = { active: string; previous: string | null; rotatedAt: string | null; previousExpiresAt: string | null };

export type Delivery = {
  deliveryId: string;
  jobId: string;
  event: string;
  state: 'pending' | 'delivered' | 'abandoned' | 'dropped';
  attempts: number;
  lastHttpStatus: number | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
};
export type DeliveryAttempt = { attempt: number; startedAt: string; finishedAt: string | null; outcome: string | null; httpStatus: number | null; error: string | null; durationMs: number | null };

export type Usage = {
  organisationName: string;
  periodStart: string;
  periodEnd: string;
  tier: string;
  includedRendersPerMonth: number;
  pagesUsedThisPeriod: number;
  pagesAvailable: number;
  includedTokensPerMonth: number;
  tokensUsedThisPeriod: number;
  tokensAvailable: number;
  userCount: number;
};
export type StoredDocument = {
  id: string;
  documentName: string;
  templateId: string;
  versionNumber: number;
  environment: 'test' | 'production';
  documentType: string;
  language: string | null;
  fileSizeBytes: number;
  pageCount: number;
  renderedAt: string;
  isPdfDeleted: boolean;
};

export type FontFamilyUse = { templateId: string; templateName: string; versions: { versionNumber: number; published: boolean }[] };
export type FontFamily = {
  family: string;
  source: 'builtin' | 'custom';
  variants: { weight: number; style: 'normal' | 'italic'; format: string | null; fileSizeBytes: number | null }[];
  /** The templates, and their versions, whose DSL uses the family. */
  usedBy: FontFamilyUse[];
};

export type Asset = { name: string; reference: string; contentType: string; bytes: number };

export class ApiError extends Error {
  constructor(readonly status: number, message: string, readonly problems: string[]) {
    super(message);
  }
}

let csrfToken = '';

export function rememberSession(session: Session): void {
  csrfToken = session.csrfToken;
}

async function call<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET') headers['X-CSRF-Token'] = csrfToken;
  const response = await fetch(`/workspace/api/${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin', signal });
  if (response.status === 204) return undefined as T;
  const json = (await response.json().catch(() => ({}))) as { message?: unknown; problems?: unknown };
  if (!response.ok) {
    const message = Array.isArray(json.message) ? json.message.join('; ') : typeof json.message === 'string' ? json.message : response.statusText;
    throw new ApiError(response.status, message, Array.isArray(json.problems) ? json.problems.map(String) : []);
  }
  return json as T;
}

export const api = {
  session: () => call<Session>('GET', 'session'),
  signIn: (email: string, password: string) => call<Session>('POST', 'session', { email, password }),
  signOut: () => call<void>('DELETE', 'session'),
  dslSchema: () => call<object>('GET', 'dsl-schema'),
  examples: () => call<{ items: { key: string; name: string }[] }>('GET', 'examples'),
  templates: (search: string) => call<{ items: Template[]; total: number }>('GET', `templates?search=${encodeURIComponent(search)}&take=100`),
  createTemplate: (name: string, example: string | undefined) => call<{ template: Template; version: Version }>('POST', 'templates', { name, example }),
  template: (id: string) => call<{ template: Template; versions: Version[] }>('GET', `templates/${encodeURIComponent(id)}`),
  version: (id: string, n: number) => call<Version>('GET', `templates/${encodeURIComponent(id)}/versions/${n}`),
  saveDraft: (id: string, n: number, content: { templateJson: string; sampleData: string; translations: string | null; documentNameTemplate: string | null }) =>
    call<Version>('PUT', `templates/${encodeURIComponent(id)}/versions/${n}`, content),
  publish: (id: string, n: number) => call<Version>('POST', `templates/${encodeURIComponent(id)}/versions/${n}/publish`),
  newDraft: (id: string, fromVersion: number) => call<Version>('POST', `templates/${encodeURIComponent(id)}/versions`, { fromVersion }),
  compare: (id: string, from: number, to: number) =>
    call<{ templateId: string; from: Version; to: Version }>('GET', `templates/${encodeURIComponent(id)}/compare?from=${from}&to=${to}`),
  preview: (
    content: { templateJson: string; sampleData: string; translations: string | null; documentNameTemplate: string | null; language: string | null },
    signal: AbortSignal,
  ) => call<Preview>('POST', 'preview', content, signal),
  apiKeys: () => call<{ items: ApiKey[] }>('GET', 'organisation/api-keys'),
  createApiKey: (environment: 'test' | 'production', label: string | null) => call<ApiKey & { key: string }>('POST', 'organisation/api-keys', { environment, label }),
  revokeApiKey: (id: string) => call<void>('DELETE', `organisation/api-keys/${encodeURIComponent(id)}`),
  webhookSecret: () => call<WebhookSecret>('GET', 'organisation/webhook-secret'),
  rotateWebhookSecret: () => call<WebhookSecret>('POST', 'organisation/webhook-secret/rotate'),
  members: () => call<{ items: Member[] }>('GET', 'organisation/members'),
  changeRole: (id: string, role: Role) => call<Member>('PATCH', `organisation/members/${encodeURIComponent(id)}`, { role }),
  removeMember: (id: string) => call<void>('DELETE', `organisation/members/${encodeURIComponent(id)}`),
  invitations: () => call<{ items: Invitation[] }>('GET', 'organisation/invitations'),
  invite: (email: string, role: Role) => call<Invitation & { token: string; link: string }>('POST', 'organisation/invitations', { email, role }),
  revokeInvitation: (id: string) => call<void>('DELETE', `organisation/invitations/${encodeURIComponent(id)}`),
  invitation: (token: string) => call<{ email: string; role: Role; expiresAt: string }>('GET', `invitations/${encodeURIComponent(token)}`),
  deliveries: (skip: number, take: number) => call<{ items: Delivery[]; total: number }>('GET', `webhook-deliveries?skip=${skip}&take=${take}`),
  delivery: (id: string) => call<Delivery & { attemptList: DeliveryAttempt[]; nextAttemptAt: string | null }>('GET', `webhook-deliveries/${encodeURIComponent(id)}`),
  redeliver: (id: string) => call<Delivery & { attempt: number }>('POST', `webhook-deliveries/${encodeURIComponent(id)}/redeliver`),
  usage: () => call<Usage>('GET', 'usage'),
  documents: (query: URLSearchParams) => call<{ items: StoredDocument[]; total: number }>('GET', `documents?${query.toString()}`),
  fonts: () => call<{ items: FontFamily[] }>('GET', 'fonts'),
  uploadFont: (font: { family: string; weight: number; style: 'normal' | 'italic'; fileName: string; contentBase64: string }) => call<FontFamily>('POST', 'fonts', font),
  /** A page of assets by name: those after `after` (from the first when null); `next` is the following page's `after`. */
  assets: (after: string | null) => call<{ items: Asset[]; next: string | null }>('GET', after === null ? 'assets' : `assets?after=${encodeURIComponent(after)}`),
  uploadAsset: (name: string, contentBase64: string) => call<Asset>('POST', 'assets', { name, contentBase64 }),
  deleteAsset: (name: string) => call<void>('DELETE', `assets?name=${encodeURIComponent(name)}`),
  /** Where an asset's file is served: shown in the page, or saved (download). */
  assetUrl: (name: string, download: boolean) => `/workspace/api/assets/content?name=${encodeURIComponent(name)}${download ? '&download=1' : ''}`,
  acceptInvitation: (token: string, name: string, password: string) => call<Session>('POST', `invitations/${encodeURIComponent(token)}/accept`, { name, password }),
};
