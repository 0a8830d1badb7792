import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { loadSettings, messagingSettings, storageSettings } from '@docrender/config';
import { DocumentType, Environment, MessageName, WebhookEvent, type DeliverWebhookCommand } from '@docrender/contracts';
import { createMessageBus, type MessageBus } from '@docrender/messaging';
import { hashPassword, provisionOrganisation, type Database, type WorkspaceRole } from '@docrender/persistence';
import { createServiceApp, serviceSettings } from '@docrender/platform';
import { createBlobStore, type BlobStore } from '@docrender/storage';
import {
  createRabbitVhost,
  createTestDatabase,
  startRenderStandIn,
  testLogger,
  TEST_API_KEY_PEPPER,
  waitFor,
  type RabbitVhost,
  type RenderStandIn,
  type TestDatabase,
} from '@docrender/testing';
import { workspaceService } from './workspace.definition';

jest.setTimeout(120_000);

const PASSWORD = 'correct horse battery staple';
const ATTEMPTS = 3;

type Agent = { cookie: string; csrf: string; organisationId: string };

describe('workspace API (issue 35: users, templates, preview, organisation settings, isolation)', () => {
  let db: TestDatabase;
  let database: Database;
  let bus: MessageBus;
  let vhost: RabbitVhost;
  let standIn: RenderStandIn;
  let app: INestApplication;
  let blobDir: string;
  let blobStore: BlobStore;
  let http: ReturnType<INestApplication['getHttpServer']>;
  const users: Record<string, Agent> = {};

  async function organisation(name: string): Promise<string> {
    const { organisation } = await database.transaction((r) =>
      provisionOrganisation(r, { name, tier: 'pro', includedPagesPerMonth: 100, includedTokensPerMonth: 0, retentionDays: null, userCount: 1 }),
    );
    return organisation.id;
  }

  async function user(email: string, organisationId: string, role: WorkspaceRole): Promise<void> {
    await database.workspaceUsers.create({ organisationId, email, name: email.split('@')[0], role, passwordHash: await hashPassword(PASSWORD) });
  }

  async function signIn(email: string): Promise<Agent> {
    const res = await request(http).post('/workspace/api/session').send({ email, password: PASSWORD }).expect(200);
    const cookie = (res.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
    return { cookie, csrf: res.body.csrfToken as string, organisationId: res.body.user.organisationId as string };
  }

  const as = (agent: Agent, method: 'get' | 'post' | 'put' | 'patch' | 'delete', url: string) => {
    const req = request(http)[method](url).set('Cookie', agent.cookie);
    return method === 'get' ? req : req.set('X-CSRF-Token', agent.csrf);
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    database = db.database;
    vhost = await createRabbitVhost('workspace');
    blobDir = mkdtempSync(path.join(tmpdir(), 'workspace-int-'));
    const env = { AMQP_URL: vhost.url, DATABASE_URL: db.url, API_KEY_PEPPER: TEST_API_KEY_PEPPER, BLOB_DIR: blobDir, WORKSPACE_SIGN_IN_ATTEMPTS: String(ATTEMPTS) };
    bus = await createMessageBus(loadSettings(messagingSettings, env), testLogger('bus'));
    blobStore = await createBlobStore(loadSettings(storageSettings, env));
    standIn = await startRenderStandIn(bus, blobStore);
    app = await createServiceApp(workspaceService, { database, bus, blobStore, close: async () => undefined }, testLogger('workspace'), serviceSettings([workspaceService], env));
    await app.init();
    http = app.getHttpServer();
    const a = await organisation('Org A');
    const b = await organisation('Org B');
    await user('owner@a.test', a, 'owner');
    await user('editor@a.test', a, 'editor');
    await user('viewer@a.test', a, 'viewer');
    await user('owner@b.test', b, 'owner');
    await user('limited@a.test', a, 'editor');
    for (const email of ['owner@a.test', 'editor@a.test', 'viewer@a.test', 'owner@b.test']) users[email] = await signIn(email);
  });

  afterAll(async () => {
    await app?.close();
    await standIn?.stop();
    await bus?.close();
    await vhost?.delete();
    await db?.drop();
    if (blobDir) rmSync(blobDir, { recursive: true, force: true });
  });

  describe('item 1: sign-in and sessions', () => {
    it('sets a Secure, httpOnly, SameSite=Strict __Host- cookie and answers the CSRF token', async () => {
      const res = await request(http).post('/workspace/api/session').send({ email: 'OWNER@a.test', password: PASSWORD }).expect(200);
      const cookie = (res.headers['set-cookie'] as unknown as string[])[0];
      expect(cookie).toMatch(/^__Host-workspace-session=[A-Za-z0-9_-]{43};/);
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).toMatch(/; SameSite=Strict/);
      expect(res.body.user).toMatchObject({ email: 'owner@a.test', role: 'owner' });
      expect(res.body.user.passwordHash).toBeUndefined();
    });

    it('refuses a wrong password and an unknown address alike (401)', async () => {
      await request(http).post('/workspace/api/session').send({ email: 'editor@a.test', password: 'wrong password!!' }).expect(401);
      await request(http).post('/workspace/api/session').send({ email: 'nobody@a.test', password: PASSWORD }).expect(401);
    });

    it('is rate-limited: past the failed attempts even the right password answers 429 with Retry-After', async () => {
      for (let i = 0; i < ATTEMPTS; i++) await request(http).post('/workspace/api/session').send({ email: 'limited@a.test', password: 'wrong password!!' }).expect(401);
      const res = await request(http).post('/workspace/api/session').send({ email: 'limited@a.test', password: PASSWORD }).expect(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('answers 401 without a session, and 403 for a write without the CSRF token or with a wrong one', async () => {
      await request(http).get('/workspace/api/templates').expect(401);
      const editor = users['editor@a.test'];
      await request(http).post('/workspace/api/templates').set('Cookie', editor.cookie).send({ name: 'x' }).expect(403);
      await request(http).post('/workspace/api/templates').set('Cookie', editor.cookie).set('X-CSRF-Token', 'forged').send({ name: 'x' }).expect(403);
    });

    it('revokes the session at sign-out: the cookie no longer works', async () => {
      const agent = await signIn('editor@a.test');
      await as(agent, 'get', '/workspace/api/session').expect(200);
      await as(agent, 'delete', '/workspace/api/session').expect(204);
      await as(agent, 'get', '/workspace/api/session').expect(401);
    });
  });

  describe('item 1: invitations and members', () => {
    const invite = (agent: Agent, email: string, role: WorkspaceRole) => as(agent, 'post', '/workspace/api/organisation/invitations').send({ email, role });
    const accept = (token: string, name: string, password: string) => request(http).post(`/workspace/api/invitations/${token}/accept`).send({ name, password });
    const sessionOf = (res: request.Response): Agent => ({
      cookie: (res.headers['set-cookie'] as unknown as string[])[0].split(';')[0],
      csrf: res.body.csrfToken as string,
      organisationId: res.body.user.organisationId as string,
    });

    it('an owner invites by e-mail with a role; the link is shown once, stored as a hash; the invitee sets a name and password and is signed in with that role', async () => {
      const owner = users['owner@a.test'];
      const created = await invite(owner, 'new.editor@a.test', 'editor').expect(201);
      const token = created.body.token as string;
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(created.body.link).toBe(`/workspace/#/invitation/${token}`);
      expect(Date.parse(created.body.expiresAt) - Date.parse(created.body.createdAt)).toBe(7 * 24 * 3600 * 1000);
      const stored = (await db.dataSource.query('SELECT token_hash FROM workspace_invitations WHERE id = $1', [created.body.id])) as { token_hash: string }[];
      expect(stored[0].token_hash).toBe(createHash('sha256').update(token).digest('hex'));

      const pending = await as(owner, 'get', '/workspace/api/organisation/invitations').expect(200);
      expect(pending.body.items).toEqual([expect.objectContaining({ id: created.body.id, email: 'new.editor@a.test', role: 'editor', invitedBy: 'owner@a.test' })]);
      expect(JSON.stringify(pending.body)).not.toContain(token);

      const shown = await request(http).get(`/workspace/api/invitations/${token}`).expect(200);
      expect(shown.body).toMatchObject({ email: 'new.editor@a.test', role: 'editor' });
      await accept(token, 'New', 'short').expect(400);
      const accepted = await accept(token, 'New Editor', PASSWORD).expect(200);
      expect(accepted.body.user).toMatchObject({ email: 'new.editor@a.test', name: 'New Editor', role: 'editor', organisationId: owner.organisationId });
      const invitee = sessionOf(accepted);
      await as(invitee, 'get', '/workspace/api/session').expect(200);
      await as(invitee, 'post', '/workspace/api/templates').send({ name: 'By the invitee' }).expect(201);

      // single use: the link is gone, and the password (scrypt, as the admin CLI's) signs in
      await accept(token, 'Again', PASSWORD).expect(404);
      await request(http).get(`/workspace/api/invitations/${token}`).expect(404);
      const signedIn = await signIn('new.editor@a.test');
      expect(signedIn.organisationId).toBe(owner.organisationId);
      const hash = (await db.dataSource.query(`SELECT password_hash FROM workspace_users WHERE email = 'new.editor@a.test'`)) as { password_hash: string }[];
      expect(hash[0].password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
      expect((await as(owner, 'get', '/workspace/api/organisation/invitations').expect(200)).body.items).toEqual([]);
    });

    it('editors and viewers cannot invite or manage members (403); inviting needs the CSRF token', async () => {
      for (const email of ['editor@a.test', 'viewer@a.test']) {
        await invite(users[email], 'x@a.test', 'viewer').expect(403);
        await as(users[email], 'get', '/workspace/api/organisation/invitations').expect(403);
        await as(users[email], 'get', '/workspace/api/organisation/members').expect(403);
      }
      const owner = users['owner@a.test'];
      await request(http).post('/workspace/api/organisation/invitations').set('Cookie', owner.cookie).send({ email: 'x@a.test', role: 'viewer' }).expect(403);
      await invite(owner, 'owner@b.test', 'viewer').expect(409); // the address has an account (in any organisation)
    });

    it('single use holds when the link is opened twice at once: one acceptance signs in, the other is refused', async () => {
      const created = await invite(users['owner@a.test'], 'twice@a.test', 'viewer').expect(201);
      const token = created.body.token as string;
      const answers = await Promise.all([accept(token, 'One', PASSWORD), accept(token, 'Two', PASSWORD)]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 404]);
      const rows = (await db.dataSource.query(`SELECT name FROM workspace_users WHERE email = 'twice@a.test'`)) as { name: string }[];
      expect(rows).toHaveLength(1);
    });

    it('a revoked or expired invitation cannot be used', async () => {
      const owner = users['owner@a.test'];
      const created = await invite(owner, 'revoked@a.test', 'viewer').expect(201);
      await as(owner, 'delete', `/workspace/api/organisation/invitations/${created.body.id}`).expect(204);
      await request(http).get(`/workspace/api/invitations/${created.body.token}`).expect(404);
      await accept(created.body.token as string, 'R', PASSWORD).expect(404);
      const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
      const old = await database.workspaceInvitations.create({ organisationId: owner.organisationId, email: 'late@a.test', role: 'viewer', invitedBy: 'owner@a.test' }, eightDaysAgo);
      await accept(old.token, 'Late', PASSWORD).expect(404);
      expect(await database.workspaceUsers.findForSignIn('late@a.test')).toBeNull();
    });

    it("an owner changes a member's role and removes a member (its sessions end), never the last owner", async () => {
      const owner = users['owner@a.test'];
      const created = await invite(owner, 'member@a.test', 'viewer').expect(201);
      const member = sessionOf(await accept(created.body.token as string, 'Member', PASSWORD).expect(200));
      const id = (await as(member, 'get', '/workspace/api/session').expect(200)).body.user.id as string;
      await as(member, 'post', '/workspace/api/templates').send({ name: 'no' }).expect(403);
      const changed = await as(owner, 'patch', `/workspace/api/organisation/members/${id}`).send({ role: 'editor' }).expect(200);
      expect(changed.body).toMatchObject({ id, role: 'editor' });
      await as(member, 'post', '/workspace/api/templates').send({ name: 'yes' }).expect(201);
      const members = await as(owner, 'get', '/workspace/api/organisation/members').expect(200);
      expect(members.body.items).toEqual(expect.arrayContaining([expect.objectContaining({ id, email: 'member@a.test', role: 'editor' })]));
      await as(owner, 'delete', `/workspace/api/organisation/members/${id}`).expect(204);
      await as(member, 'get', '/workspace/api/session').expect(401);

      const b = users['owner@b.test'];
      const bId = (await as(b, 'get', '/workspace/api/session').expect(200)).body.user.id as string;
      await as(b, 'patch', `/workspace/api/organisation/members/${bId}`).send({ role: 'editor' }).expect(409);
      await as(b, 'delete', `/workspace/api/organisation/members/${bId}`).expect(409);
      await as(b, 'get', '/workspace/api/session').expect(200);
    });
  });

  describe('item 2: templates', () => {
    it('creates from an example, saves a draft, publishes it (publishedBy), starts a draft from it, and records updatedBy', async () => {
      const editor = users['editor@a.test'];
      const examples = await as(editor, 'get', '/workspace/api/examples').expect(200);
      expect(examples.body.items.map((e: { key: string }) => e.key)).toContain('invoice');
      const created = await as(editor, 'post', '/workspace/api/templates').send({ name: 'My invoice', example: 'invoice' }).expect(201);
      const id = created.body.template.id as string;
      expect(created.body.template.updatedBy).toBe('editor@a.test');
      expect(created.body.version).toMatchObject({ versionNumber: 1, publishedAt: null, publishedBy: null });
      const { templateJson, sampleData, translations } = created.body.version as { templateJson: string; sampleData: string; translations: string | null };
      const draft = { templateJson, sampleData, translations };

      const broken = { ...draft, documentNameTemplate: null, templateJson: draft.templateJson.replace('{{ number }}', '{{ number ') };
      const refused = await as(editor, 'put', `/workspace/api/templates/${id}/versions/1`).send(broken).expect(422);
      expect(refused.body.problems.join('\n')).toMatch(/^\$\.title: /m);

      const renamed = { ...draft, documentNameTemplate: 'Invoice {{ number }}' };
      await as(editor, 'put', `/workspace/api/templates/${id}/versions/1`).send(renamed).expect(200);
      const published = await as(editor, 'post', `/workspace/api/templates/${id}/versions/1/publish`).expect(201);
      expect(published.body).toMatchObject({ versionNumber: 1, publishedBy: 'editor@a.test', documentNameTemplate: 'Invoice {{ number }}' });
      expect(Date.parse(published.body.publishedAt)).not.toBeNaN();
      await as(editor, 'put', `/workspace/api/templates/${id}/versions/1`).send(renamed).expect(409);

      const next = await as(users['owner@a.test'], 'post', `/workspace/api/templates/${id}/versions`).send({ fromVersion: 1 }).expect(201);
      expect(next.body).toMatchObject({ versionNumber: 2, publishedAt: null, templateJson: published.body.templateJson });
      const template = await as(users['viewer@a.test'], 'get', `/workspace/api/templates/${id}`).expect(200);
      expect(template.body.template).toMatchObject({ latestVersionNumber: 1, versionCount: 2, updatedBy: 'owner@a.test' });

      const found = await as(users['viewer@a.test'], 'get', '/workspace/api/templates?search=my%20inv').expect(200);
      expect(found.body.items.map((t: { id: string }) => t.id)).toEqual([id]);
      const none = await as(users['viewer@a.test'], 'get', '/workspace/api/templates?search=zzz').expect(200);
      expect(none.body.total).toBe(0);
    });

    it('compares two versions: both with DSL, sample data, translations and name template; viewers may compare', async () => {
      const editor = users['editor@a.test'];
      const created = await as(editor, 'post', '/workspace/api/templates').send({ name: 'Compared', example: 'invoice' }).expect(201);
      const id = created.body.template.id as string;
      const v1 = created.body.version as { templateJson: string; sampleData: string; translations: string | null };
      await as(editor, 'post', `/workspace/api/templates/${id}/versions/1/publish`).expect(201);
      await as(editor, 'post', `/workspace/api/templates/${id}/versions`).send({ fromVersion: 1 }).expect(201);
      const changed = { templateJson: v1.templateJson.replace('{{ number }}', 'No. {{ number }}'), sampleData: v1.sampleData, translations: v1.translations, documentNameTemplate: 'Invoice {{ number }}' };
      expect(changed.templateJson).not.toBe(v1.templateJson);
      await as(editor, 'put', `/workspace/api/templates/${id}/versions/2`).send(changed).expect(200);

      const compared = await as(users['viewer@a.test'], 'get', `/workspace/api/templates/${id}/compare?from=1&to=2`).expect(200);
      expect(compared.body.templateId).toBe(id);
      expect(compared.body.from).toMatchObject({ versionNumber: 1, templateJson: v1.templateJson, sampleData: v1.sampleData, translations: v1.translations, documentNameTemplate: null });
      expect(compared.body.to).toMatchObject({ versionNumber: 2, ...changed, publishedAt: null });
      expect(Date.parse(compared.body.from.publishedAt)).not.toBeNaN();
      await as(users['viewer@a.test'], 'get', `/workspace/api/templates/${id}/compare?from=1&to=3`).expect(404);
      await as(users['viewer@a.test'], 'get', `/workspace/api/templates/${id}/compare?from=1`).expect(400);
    });

    it('item 6: a viewer cannot write (403), and reads', async () => {
      const viewer = users['viewer@a.test'];
      await as(viewer, 'post', '/workspace/api/templates').send({ name: 'nope' }).expect(403);
      const created = await as(users['editor@a.test'], 'post', '/workspace/api/templates').send({ name: 'Viewer target' }).expect(201);
      const id = created.body.template.id as string;
      await as(viewer, 'put', `/workspace/api/templates/${id}/versions/1`).send({ templateJson: '{}', sampleData: '{}', translations: null, documentNameTemplate: null }).expect(403);
      await as(viewer, 'post', `/workspace/api/templates/${id}/versions/1/publish`).expect(403);
      await as(viewer, 'post', `/workspace/api/templates/${id}/versions`).send({ fromVersion: 1 }).expect(403);
      await as(viewer, 'get', '/workspace/api/organisation/api-keys').expect(403);
      await as(users['editor@a.test'], 'post', '/workspace/api/organisation/api-keys').send({ environment: 'test', label: null }).expect(403);
      await as(viewer, 'get', `/workspace/api/templates/${id}/versions/1`).expect(200);
    });
  });

  describe('item 3: preview', () => {
    it('renders the draft as typed with test semantics and answers the PDF; a broken binding is an issue naming its path', async () => {
      const editor = users['editor@a.test'];
      const template = JSON.stringify({ dsl: 1, name: 'P', page: { size: 'A4' }, body: [{ type: 'text', id: 'hello', text: 'Hello {{ name }}' }] });
      const ok = await as(editor, 'post', '/workspace/api/preview')
        .send({ templateJson: template, sampleData: JSON.stringify({ data: { scenario: 'ok', pages: 2 }, i18n: {} }), translations: null, documentNameTemplate: null, language: null })
        .expect(200);
      expect(ok.body).toMatchObject({ outcome: 'rendered', pageCount: 2 });
      expect(Buffer.from(ok.body.pdfBase64 as string, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
      expect(standIn.renders.size).toBe(1);

      const broken = await as(editor, 'post', '/workspace/api/preview')
        .send({ templateJson: template.replace('{{ name }}', '{{ name '), sampleData: JSON.stringify({ data: { scenario: 'ok' } }), translations: null, documentNameTemplate: null, language: null })
        .expect(200);
      expect(broken.body.outcome).toBe('invalid');
      expect(broken.body.pdfBase64).toBeNull();
      expect(broken.body.issues[0]).toMatchObject({ severity: 'Error', path: '$.body[0].text' });
      expect(standIn.renders.size).toBe(1); // a template the checks refuse is not sent to the render service
    });
  });

  describe('item 4: organisation settings', () => {
    it('creates an API key shown once, lists it without the key, and revokes it', async () => {
      const owner = users['owner@a.test'];
      const created = await as(owner, 'post', '/workspace/api/organisation/api-keys').send({ environment: 'test', label: 'ci' }).expect(201);
      expect(created.body.key).toMatch(/^service_test_[A-Za-z0-9]{40}$/);
      expect(await database.apiKeys.authenticate(created.body.key as string)).toMatchObject({ organisationId: owner.organisationId });
      const listed = await as(owner, 'get', '/workspace/api/organisation/api-keys').expect(200);
      expect(JSON.stringify(listed.body)).not.toContain(created.body.key);
      expect(listed.body.items).toEqual([expect.objectContaining({ id: created.body.id, label: 'ci', environment: 'test', revokedAt: null, lastUsedAt: null })]);
      // item 4: the last use the gateway records (ApiKeyUseRecorder; the render through /v1 is in the e2e spec)
      const usedAt = new Date('2026-03-04T05:06:07.000Z');
      await database.apiKeys.recordUse(created.body.id as string, usedAt);
      const used = await as(owner, 'get', '/workspace/api/organisation/api-keys').expect(200);
      expect(used.body.items[0].lastUsedAt).toBe(usedAt.toISOString());
      await as(owner, 'delete', `/workspace/api/organisation/api-keys/${created.body.id}`).expect(204);
      expect(await database.apiKeys.authenticate(created.body.key as string)).toBeNull();
    });

    it('spec 6.4: rotating the webhook secret keeps the previous one signing for 24 hours', async () => {
      const owner = users['owner@a.test'];
      const before = await as(owner, 'get', '/workspace/api/organisation/webhook-secret').expect(200);
      expect(before.body.active).toMatch(/^whsec_/);
      const rotated = await as(owner, 'post', '/workspace/api/organisation/webhook-secret/rotate').expect(200);
      expect(rotated.body.previous).toBe(before.body.active);
      expect(rotated.body.active).not.toBe(before.body.active);
      expect(Date.parse(rotated.body.previousExpiresAt) - Date.parse(rotated.body.rotatedAt)).toBe(24 * 3600 * 1000);
      expect(await database.webhookSecrets.signingSecretsAt(owner.organisationId)).toEqual([rotated.body.active, before.body.active]);
    });
  });

  describe('item 4: usage and documents', () => {
    /** A stored document of `organisationId` with a PDF in the blob store. */
    async function storedDocument(organisationId: string, name: string, pages: number, environment: Environment, renderedAt: Date): Promise<string> {
      const template = await database.templates.create({ organisationId, projectId: null, name: `T ${name}`, documentNameTemplate: null, updatedBy: 'test' });
      const id = randomUUID();
      const pdfBlobKey = `documents/${organisationId}/${id}.pdf`;
      const pdf = Buffer.from(`%PDF-1.7\n% ${name}\n%%EOF\n`);
      await blobStore.put(pdfBlobKey, pdf, 'application/pdf');
      await database.documents.create({
        id,
        organisationId,
        templateId: template.id,
        versionNumber: 1,
        environment,
        language: null,
        documentName: name,
        documentType: DocumentType.Template,
        pdfBlobKey,
        fileSizeBytes: pdf.length,
        pageCount: pages,
        renderedAt,
        renderDurationMs: 12,
      });
      return id;
    }

    it('spec 2.12: the usage page answers the figures of GET /v1/organisation/stats (the same organisationStats)', async () => {
      const viewer = users['viewer@a.test'];
      await database.usage.setPagesUsed(viewer.organisationId, 7);
      const usage = await as(viewer, 'get', '/workspace/api/usage').expect(200);
      expect(usage.body).toMatchObject({ organisationName: 'Org A', tier: 'pro', includedRendersPerMonth: 100, pagesUsedThisPeriod: 7, pagesAvailable: 93, userCount: 1 });
      expect(Date.parse(usage.body.periodEnd)).toBeGreaterThan(Date.parse(usage.body.periodStart));
      const b = await as(users['owner@b.test'], 'get', '/workspace/api/usage').expect(200);
      expect(b.body).toMatchObject({ organisationName: 'Org B', pagesUsedThisPeriod: 0 });
    });

    it('spec 4.1 / 4.13: lists stored documents with the API\'s filters, sort and paging, and downloads a PDF through the workspace', async () => {
      const a = users['owner@a.test'].organisationId;
      const t = Date.parse('2026-06-01T00:00:00.000Z');
      const one = await storedDocument(a, 'Invoice 1', 1, Environment.Production, new Date(t));
      const two = await storedDocument(a, 'Invoice 2', 3, Environment.Production, new Date(t + 1000));
      const three = await storedDocument(a, 'Letter 3', 2, Environment.Test, new Date(t + 2000));
      const viewer = users['viewer@a.test'];
      const all = await as(viewer, 'get', '/workspace/api/documents?sortBy=renderedAt&sortDirection=desc').expect(200);
      expect(all.body).toMatchObject({ total: 3, skip: 0, take: 25 });
      expect(all.body.items.map((d: { id: string }) => d.id)).toEqual([three, two, one]);
      const paged = await as(viewer, 'get', '/workspace/api/documents?sortBy=pageCount&sortDirection=asc&skip=1&take=1').expect(200);
      expect(paged.body.items.map((d: { id: string }) => d.id)).toEqual([three]);
      const filtered = await as(viewer, 'get', '/workspace/api/documents?filters[0].field=environment&filters[0].value=production&filters[1].field=pageCount&filters[1].op=gte&filters[1].value=2').expect(200);
      expect(filtered.body.items.map((d: { id: string }) => d.id)).toEqual([two]);
      const searched = await as(viewer, 'get', '/workspace/api/documents?search=letter').expect(200);
      expect(searched.body.items.map((d: { id: string }) => d.id)).toEqual([three]);
      await as(viewer, 'get', '/workspace/api/documents?filters[0].field=secret&filters[0].value=x').expect(400);
      await as(viewer, 'get', '/workspace/api/documents?skip=a').expect(422);

      const pdf = await as(viewer, 'get', `/workspace/api/documents/${two}/pdf`)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        })
        .expect(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.headers['content-disposition']).toBe(`attachment; filename="Invoice 2.pdf"; filename*=UTF-8''Invoice%202.pdf`);
      expect((pdf.body as Buffer).toString()).toContain('% Invoice 2');
      await database.documents.markPdfDeleted([one]);
      await as(viewer, 'get', `/workspace/api/documents/${one}/pdf`).expect(410);
    });
  });

  describe('item 4: fonts', () => {
    const ttf = Buffer.concat([Buffer.from([0, 1, 0, 0]), Buffer.alloc(60, 7)]).toString('base64');

    it('lists the built-in families and the custom ones with the templates (versions) using each; an owner uploads a variant through the shared registration (blob stored); others may not (403)', async () => {
      const owner = users['owner@a.test'];
      const before = await as(users['viewer@a.test'], 'get', '/workspace/api/fonts').expect(200);
      const builtin = before.body.items.filter((f: { source: string }) => f.source === 'builtin');
      expect(builtin.length).toBeGreaterThan(0);
      expect(before.body.items.some((f: { source: string }) => f.source === 'custom')).toBe(false);

      const upload = { family: 'Acme Sans', weight: 700, style: 'italic', fileName: 'AcmeSans-BoldItalic.ttf', contentBase64: ttf };
      for (const email of ['editor@a.test', 'viewer@a.test']) await as(users[email], 'post', '/workspace/api/fonts').send(upload).expect(403);
      await request(http).post('/workspace/api/fonts').set('Cookie', owner.cookie).send(upload).expect(403);
      const created = await as(owner, 'post', '/workspace/api/fonts').send(upload).expect(201);
      expect(created.body).toEqual({ family: 'Acme Sans', source: 'custom', variants: [{ weight: 700, style: 'italic', format: 'ttf', fileSizeBytes: 64 }] });
      await as(owner, 'post', '/workspace/api/fonts').send({ ...upload, weight: 400, style: 'normal', fileName: 'AcmeSans.ttf' }).expect(201);
      const [family] = await database.fonts.listLiveFamilies(owner.organisationId);
      expect(family.files.map((f) => [f.weight, f.style])).toEqual([
        [400, 'normal'],
        [700, 'italic'],
      ]);
      expect((await blobStore.stat(family.files[0].blobKey))?.sizeBytes).toBe(64);

      await as(owner, 'post', '/workspace/api/fonts').send({ ...upload, fileName: 'AcmeSans.woff2' }).expect(400); // bytes are not woff2
      await as(owner, 'post', '/workspace/api/fonts').send({ ...upload, fileName: 'AcmeSans.exe' }).expect(400);
      await as(owner, 'post', '/workspace/api/fonts').send({ ...upload, family: builtin[0].family }).expect(400);
      await as(owner, 'post', '/workspace/api/fonts').send({ ...upload, family: '<script>' }).expect(400);

      // which templates use a family: version 1 names it (any case), the draft 2 no longer does
      const branded = await database.templates.create({ organisationId: owner.organisationId, projectId: null, name: 'Branded <b>letter</b>', documentNameTemplate: null, updatedBy: 'test' });
      const dsl = (fontFamily: string) => JSON.stringify({ body: [{ type: 'text', id: 'greeting', text: 'Hello', style: { fontFamily } }] });
      const content = { sampleData: '{"data":{}}', translations: null, documentNameTemplate: null };
      await database.templateVersions.addVersion(branded.id, { ...content, templateJson: dsl('acme sans') }, { author: 'test', publish: true });
      await database.templateVersions.addVersion(branded.id, { ...content, templateJson: dsl('serif') }, { author: 'test', publish: false });

      const listed = await as(users['viewer@a.test'], 'get', '/workspace/api/fonts').expect(200);
      expect(listed.body.items.filter((f: { source: string }) => f.source === 'custom')).toEqual([
        {
          family: 'Acme Sans',
          source: 'custom',
          variants: [expect.objectContaining({ weight: 400, style: 'normal' }), expect.objectContaining({ weight: 700, style: 'italic' })],
          usedBy: [{ templateId: branded.id, templateName: 'Branded <b>letter</b>', versions: [{ versionNumber: 1, published: true }] }],
        },
      ]);
      const serif = listed.body.items.find((f: { family: string }) => f.family === 'Noto Serif');
      expect(serif.usedBy.filter((u: { templateId: string }) => u.templateId === branded.id)).toEqual([{ templateId: branded.id, templateName: 'Branded <b>letter</b>', versions: [{ versionNumber: 2, published: false }] }]);
      // isolation: another organisation sees only the built-in families
      const b = await as(users['owner@b.test'], 'get', '/workspace/api/fonts').expect(200);
      expect(b.body.items.every((f: { source: string }) => f.source === 'builtin')).toBe(true);
      expect(b.body.items.flatMap((f: { usedBy: { templateId: string }[] }) => f.usedBy.map((u) => u.templateId))).not.toContain(branded.id);
    });
  });

  describe('item 4: assets', () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    const pdf = Buffer.from('%PDF-1.7\n% terms of A\n');

    it('lists, uploads through the shared registration (images and PDFs), opens, downloads and deletes assets; only owners write', async () => {
      const owner = users['owner@a.test'];
      const viewer = users['viewer@a.test'];
      expect((await as(viewer, 'get', '/workspace/api/assets').expect(200)).body).toEqual({ items: [], after: null, take: 200, next: null });

      const logo = { name: 'brand/logo.png', contentBase64: png.toString('base64') };
      for (const email of ['editor@a.test', 'viewer@a.test']) await as(users[email], 'post', '/workspace/api/assets').send(logo).expect(403);
      await request(http).post('/workspace/api/assets').set('Cookie', owner.cookie).send(logo).expect(403); // no CSRF token
      expect((await as(owner, 'post', '/workspace/api/assets').send(logo).expect(201)).body).toEqual({ name: 'brand/logo.png', reference: 'asset:brand/logo.png', contentType: 'image/png', bytes: png.length });
      await as(owner, 'post', '/workspace/api/assets').send({ name: 'legal/terms.pdf', contentBase64: pdf.toString('base64') }).expect(201);
      expect(await blobStore.get(`orgs/${owner.organisationId}/assets/brand/logo.png`)).toEqual(png);

      // the registration's rules: images and PDFs only, asset names only (a name is never markup)
      await as(owner, 'post', '/workspace/api/assets').send({ name: 'page.html', contentBase64: Buffer.from('<html><script>alert(1)</script></html>').toString('base64') }).expect(400);
      await as(owner, 'post', '/workspace/api/assets').send({ name: '<script>', contentBase64: png.toString('base64') }).expect(400);
      await as(owner, 'post', '/workspace/api/assets').send({ name: 'a/../b.png', contentBase64: png.toString('base64') }).expect(400);
      await as(owner, 'post', '/workspace/api/assets').send({ name: 'empty.png', contentBase64: '' }).expect(400);

      const listed = await as(viewer, 'get', '/workspace/api/assets').expect(200);
      expect(listed.body.items).toEqual([
        { name: 'brand/logo.png', reference: 'asset:brand/logo.png', contentType: 'image/png', bytes: png.length },
        { name: 'legal/terms.pdf', reference: 'asset:legal/terms.pdf', contentType: 'application/pdf', bytes: pdf.length },
      ]);

      const shown = await as(viewer, 'get', '/workspace/api/assets/content?name=brand/logo.png').buffer(true).expect(200);
      expect(shown.headers['content-type']).toBe('image/png');
      expect(shown.headers['content-disposition']).toBe('inline; filename="logo.png"');
      expect(shown.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
      expect(shown.headers['x-content-type-options']).toBe('nosniff');
      expect(Buffer.from(shown.body as Buffer)).toEqual(png);
      const saved = await as(viewer, 'get', '/workspace/api/assets/content?name=legal/terms.pdf&download=1').buffer(true).expect(200);
      expect(saved.headers['content-type']).toBe('application/pdf');
      expect(saved.headers['content-disposition']).toBe('attachment; filename="terms.pdf"');
      await as(viewer, 'get', '/workspace/api/assets/content?name=missing.png').expect(404);
      await as(viewer, 'get', '/workspace/api/assets/content?name=../../x').expect(400);

      for (const email of ['editor@a.test', 'viewer@a.test']) await as(users[email], 'delete', '/workspace/api/assets?name=brand/logo.png').expect(403);
      await request(http).delete('/workspace/api/assets?name=brand/logo.png').set('Cookie', owner.cookie).expect(403);
      await as(owner, 'delete', '/workspace/api/assets?name=brand/logo.png').expect(204);
      await as(owner, 'delete', '/workspace/api/assets?name=brand/logo.png').expect(404);
      expect((await as(viewer, 'get', '/workspace/api/assets').expect(200)).body.items.map((a: { name: string }) => a.name)).toEqual(['legal/terms.pdf']);
    });

    it('bounded cost: an organisation with more assets than a page (201) lists the first 200 by name and says more follow; the next page continues after the last', async () => {
      const organisationId = await organisation('Org with many assets');
      await user('many@assets.test', organisationId, 'viewer');
      const viewer = await signIn('many@assets.test');
      const names = Array.from({ length: 201 }, (_, i) => `logos/${String(i).padStart(3, '0')}.png`);
      for (const name of names) await blobStore.put(`orgs/${organisationId}/assets/${name}`, png, 'image/png');

      const first = (await as(viewer, 'get', '/workspace/api/assets').expect(200)).body;
      expect(first.items).toHaveLength(200);
      expect(first.items.map((a: { name: string }) => a.name)).toEqual(names.slice(0, 200));
      expect(first.items[0]).toEqual({ name: 'logos/000.png', reference: 'asset:logos/000.png', contentType: 'image/png', bytes: png.length });
      expect({ after: first.after, take: first.take, next: first.next }).toEqual({ after: null, take: 200, next: 'logos/199.png' });

      const second = (await as(viewer, 'get', `/workspace/api/assets?after=${encodeURIComponent(first.next)}`).expect(200)).body;
      expect(second).toEqual({ items: [{ name: 'logos/200.png', reference: 'asset:logos/200.png', contentType: 'image/png', bytes: png.length }], after: 'logos/199.png', take: 200, next: null });

      // a smaller page on request, never a larger one; `after` is an asset name
      const two = (await as(viewer, 'get', '/workspace/api/assets?take=2&after=logos/050.png').expect(200)).body;
      expect({ names: two.items.map((a: { name: string }) => a.name), next: two.next }).toEqual({ names: ['logos/051.png', 'logos/052.png'], next: 'logos/052.png' });
      expect((await as(viewer, 'get', '/workspace/api/assets?take=100000').expect(200)).body.items).toHaveLength(200);
      const refused = await as(viewer, 'get', '/workspace/api/assets?after=../x').expect(400);
      expect(JSON.stringify(refused.body)).toContain('the asset name');
    });
  });

  describe('item 5: webhook deliveries', () => {
    const sent: DeliverWebhookCommand[] = [];
    beforeAll(async () => {
      await bus.consume(MessageName.DeliverWebhook, async (command) => {
        sent.push(command);
      });
    });

    /** A callback of org `organisationId` as the job worker stores it (outbox, published), with attempts answered `statuses`. */
    async function delivery(organisationId: string, statuses: number[], state: 'pending' | 'delivered' | 'abandoned', createdAt: Date): Promise<string> {
      const deliveryId = randomUUID();
      const jobId = randomUUID();
      const command: DeliverWebhookCommand = { deliveryId, jobId, organisationId, event: WebhookEvent.Completed, callbackUrl: 'https://hooks.example.com/cb', body: `{"jobId":"${jobId}"}`, attempt: 1 };
      await database.outbox.add(MessageName.DeliverWebhook, command, { id: deliveryId, now: createdAt });
      await db.dataSource.query(`UPDATE outbox SET published_at = $2 WHERE id = $1`, [deliveryId, createdAt]);
      const ref = { deliveryId, jobId, organisationId, event: WebhookEvent.Completed };
      for (const [i, status] of statuses.entries()) {
        const at = new Date(createdAt.getTime() + i * 1000);
        await database.webhookDeliveries.claimAttempt(ref, i + 1, 10_000, at);
        const ok = status >= 200 && status < 300;
        const settled = i === statuses.length - 1 ? state : 'pending';
        await database.webhookDeliveries.finishAttempt(deliveryId, i + 1, { outcome: ok ? 'delivered' : 'failed', httpStatus: status, error: ok ? null : `HTTP ${status}`, durationMs: 40 + i }, settled, at);
      }
      return deliveryId;
    }

    it('lists the organisation\'s deliveries newest first with paging, and shows one with its attempts (status codes, timings) and next attempt; viewers read', async () => {
      const a = users['owner@a.test'].organisationId;
      const t0 = new Date('2026-05-01T10:00:00.000Z');
      const oldest = await delivery(a, [204], 'delivered', t0);
      const retrying = await delivery(a, [500, 503], 'pending', new Date(t0.getTime() + 60_000));
      const newest = await delivery(a, [500, 500, 500, 500, 500], 'abandoned', new Date(t0.getTime() + 120_000));
      const viewer = users['viewer@a.test'];
      const first = await as(viewer, 'get', '/workspace/api/webhook-deliveries?take=2').expect(200);
      expect(first.body.total).toBeGreaterThanOrEqual(3);
      const page1 = first.body.items.map((d: { deliveryId: string }) => d.deliveryId);
      const rest = await as(viewer, 'get', `/workspace/api/webhook-deliveries?skip=2&take=100`).expect(200);
      const all = [...page1, ...rest.body.items.map((d: { deliveryId: string }) => d.deliveryId)];
      expect(all.filter((id: string) => [oldest, retrying, newest].includes(id))).toEqual([newest, retrying, oldest]);
      expect(new Set(all).size).toBe(all.length);

      const shown = await as(viewer, 'get', `/workspace/api/webhook-deliveries/${retrying}`).expect(200);
      expect(shown.body).toMatchObject({ deliveryId: retrying, event: 'render.completed', state: 'pending', attempts: 2, lastHttpStatus: 503 });
      expect(shown.body.attemptList.map((x: { attempt: number; httpStatus: number; outcome: string; durationMs: number }) => [x.attempt, x.httpStatus, x.outcome, x.durationMs])).toEqual([
        [1, 500, 'failed', 40],
        [2, 503, 'failed', 41],
      ]);
      // spec 6.3: after the second failed attempt the third follows 4 s later
      expect(Date.parse(shown.body.nextAttemptAt) - Date.parse(shown.body.attemptList[1].finishedAt)).toBe(4000);
      const abandoned = await as(viewer, 'get', `/workspace/api/webhook-deliveries/${newest}`).expect(200);
      expect(abandoned.body).toMatchObject({ state: 'abandoned', attempts: 5, nextAttemptAt: null });
    });

    it('an owner sends an abandoned callback again: the same delivery id, pending, its next attempt published through the outbox; delivered and pending ones are refused (409)', async () => {
      const owner = users['owner@a.test'];
      const id = await delivery(owner.organisationId, [500, 500, 500, 500, 500], 'abandoned', new Date());
      const res = await as(owner, 'post', `/workspace/api/webhook-deliveries/${id}/redeliver`).expect(202);
      expect(res.body).toMatchObject({ deliveryId: id, state: 'pending', attempt: 6 });
      const message = await waitFor('the redelivery message', () => sent.find((c) => c.deliveryId === id));
      expect(message).toMatchObject({ deliveryId: id, organisationId: owner.organisationId, event: 'render.completed', callbackUrl: 'https://hooks.example.com/cb', attempt: 6 });
      const [outbox] = (await db.dataSource.query(`SELECT payload, published_at FROM outbox WHERE id = $1`, [id])) as { payload: DeliverWebhookCommand; published_at: Date | null }[];
      expect(outbox.payload.attempt).toBe(6);
      expect(outbox.published_at).not.toBeNull();
      // the dispatcher may claim attempt 6 now: the delivery is pending again under the same id
      const claim = await database.webhookDeliveries.claimAttempt({ deliveryId: id, jobId: message.jobId, organisationId: owner.organisationId, event: WebhookEvent.Completed }, 6, 10_000);
      expect(claim.kind).toBe('claimed');
      await as(owner, 'post', `/workspace/api/webhook-deliveries/${id}/redeliver`).expect(409);

      const delivered = await delivery(owner.organisationId, [200], 'delivered', new Date());
      await as(owner, 'post', `/workspace/api/webhook-deliveries/${delivered}/redeliver`).expect(409);
      const gone = await delivery(owner.organisationId, [500, 500, 500, 500, 500], 'abandoned', new Date());
      await db.dataSource.query(`DELETE FROM outbox WHERE id = $1`, [gone]);
      const refused = await as(owner, 'post', `/workspace/api/webhook-deliveries/${gone}/redeliver`).expect(409);
      expect(refused.body.message).toMatch(/no longer kept/);
    });

    it('editors and viewers may not redeliver (403), and redelivery needs the CSRF token', async () => {
      const owner = users['owner@a.test'];
      const id = await delivery(owner.organisationId, [500, 500, 500, 500, 500], 'abandoned', new Date());
      for (const email of ['editor@a.test', 'viewer@a.test']) await as(users[email], 'post', `/workspace/api/webhook-deliveries/${id}/redeliver`).expect(403);
      await request(http).post(`/workspace/api/webhook-deliveries/${id}/redeliver`).set('Cookie', owner.cookie).expect(403);
      expect((await database.webhookDeliveries.findDelivery(id))?.state).toBe('abandoned');
    });
  });

  describe('item 6: isolation — another organisation\'s ids answer 404 on every workspace route', () => {
    it('covers every route that takes an id', async () => {
      const created = await as(users['editor@a.test'], 'post', '/workspace/api/templates').send({ name: 'Secret of A', example: 'letter' }).expect(201);
      const id = created.body.template.id as string;
      const key = await as(users['owner@a.test'], 'post', '/workspace/api/organisation/api-keys').send({ environment: 'test', label: 'a' }).expect(201);
      const invitation = await as(users['owner@a.test'], 'post', '/workspace/api/organisation/invitations').send({ email: 'isolated@a.test', role: 'viewer' }).expect(201);
      const memberId = (await as(users['viewer@a.test'], 'get', '/workspace/api/session').expect(200)).body.user.id as string;
      const a = users['owner@a.test'].organisationId;
      const deliveryId = randomUUID();
      const callback: DeliverWebhookCommand = { deliveryId, jobId: randomUUID(), organisationId: a, event: WebhookEvent.Failed, callbackUrl: 'https://hooks.example.com/a', body: '{}', attempt: 1 };
      await database.outbox.add(MessageName.DeliverWebhook, callback, { id: deliveryId });
      await database.webhookDeliveries.markDropped(callback, 'queue full');
      const documentTemplate = await database.templates.create({ organisationId: a, projectId: null, name: 'Doc of A', documentNameTemplate: null, updatedBy: 'test' });
      const documentId = randomUUID();
      await blobStore.put(`documents/${documentId}.pdf`, Buffer.from('%PDF-1.7 secret of A'), 'application/pdf');
      await database.documents.create({ id: documentId, organisationId: a, templateId: documentTemplate.id, versionNumber: 1, environment: Environment.Test, language: null, documentName: 'Secret of A', documentType: DocumentType.Template, pdfBlobKey: `documents/${documentId}.pdf`, fileSizeBytes: 20, pageCount: 1, renderedAt: new Date(), renderDurationMs: 1 });
      await blobStore.put(`orgs/${a}/assets/secret-of-a.png`, Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'), 'image/png');
      const b = users['owner@b.test'];
      const content = { templateJson: created.body.version.templateJson, sampleData: created.body.version.sampleData, translations: created.body.version.translations, documentNameTemplate: null };
      const routes: Array<[string, () => request.Test]> = [
        ['GET template', () => as(b, 'get', `/workspace/api/templates/${id}`)],
        ['GET version', () => as(b, 'get', `/workspace/api/templates/${id}/versions/1`)],
        ['GET compare', () => as(b, 'get', `/workspace/api/templates/${id}/compare?from=1&to=1`)],
        ['PUT draft', () => as(b, 'put', `/workspace/api/templates/${id}/versions/1`).send(content)],
        ['POST publish', () => as(b, 'post', `/workspace/api/templates/${id}/versions/1/publish`)],
        ['POST new draft', () => as(b, 'post', `/workspace/api/templates/${id}/versions`).send({ fromVersion: 1 })],
        ['DELETE api key', () => as(b, 'delete', `/workspace/api/organisation/api-keys/${key.body.id}`)],
        ['PATCH member', () => as(b, 'patch', `/workspace/api/organisation/members/${memberId}`).send({ role: 'owner' })],
        ['DELETE member', () => as(b, 'delete', `/workspace/api/organisation/members/${memberId}`)],
        ['DELETE invitation', () => as(b, 'delete', `/workspace/api/organisation/invitations/${invitation.body.id}`)],
        ['GET webhook delivery', () => as(b, 'get', `/workspace/api/webhook-deliveries/${deliveryId}`)],
        ['GET document PDF', () => as(b, 'get', `/workspace/api/documents/${documentId}/pdf`)],
        ['POST redeliver', () => as(b, 'post', `/workspace/api/webhook-deliveries/${deliveryId}/redeliver`)],
        ['GET asset content', () => as(b, 'get', '/workspace/api/assets/content?name=secret-of-a.png')],
        ['DELETE asset', () => as(b, 'delete', '/workspace/api/assets?name=secret-of-a.png')],
      ];
      for (const [name, call] of routes) expect([name, (await call()).status]).toEqual([name, 404]);
      const list = await as(b, 'get', '/workspace/api/templates?search=Secret').expect(200);
      expect(list.body.total).toBe(0);
      const keys = await as(b, 'get', '/workspace/api/organisation/api-keys').expect(200);
      expect(keys.body.items).toEqual([]);
      const bMembers = await as(b, 'get', '/workspace/api/organisation/members').expect(200);
      expect(bMembers.body.items.map((m: { email: string }) => m.email)).toEqual(['owner@b.test']);
      expect((await as(b, 'get', '/workspace/api/organisation/invitations').expect(200)).body.items).toEqual([]);
      expect((await as(b, 'get', '/workspace/api/webhook-deliveries').expect(200)).body).toMatchObject({ items: [], total: 0 });
      expect((await as(b, 'get', '/workspace/api/documents?search=Secret').expect(200)).body).toMatchObject({ items: [], total: 0 });
      expect((await as(b, 'get', '/workspace/api/assets').expect(200)).body.items.map((x: { name: string }) => x.name)).not.toContain('secret-of-a.png');
      // nothing changed in A
      expect((await as(users['viewer@a.test'], 'get', '/workspace/api/session').expect(200)).body.user.role).toBe('viewer');
      await request(http).get(`/workspace/api/invitations/${invitation.body.token}`).expect(200);
      const version = await as(users['viewer@a.test'], 'get', `/workspace/api/templates/${id}/versions/1`).expect(200);
      expect(version.body.publishedAt).toBeNull();
      expect(await database.apiKeys.authenticate(key.body.key as string)).not.toBeNull();
      expect((await database.webhookDeliveries.findDelivery(deliveryId))?.state).toBe('dropped');
      expect(await blobStore.stat(`orgs/${a}/assets/secret-of-a.png`)).not.toBeNull();
    });
  });

  it('item 6: answers carry a strict Content-Security-Policy and no-store', async () => {
    const res = await request(http).get('/workspace/api/session').expect(401);
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; worker-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves its own OpenAPI document, apart from /v1', async () => {
    const res = await request(http).get('/workspace/api/openapi.json').expect(200);
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/workspace/api/session', '/workspace/api/templates', '/workspace/api/preview', '/workspace/api/organisation/api-keys', '/workspace/api/organisation/invitations', '/workspace/api/organisation/members/{userId}', '/workspace/api/invitations/{token}/accept', '/workspace/api/templates/{templateId}/compare', '/workspace/api/webhook-deliveries', '/workspace/api/webhook-deliveries/{deliveryId}/redeliver', '/workspace/api/usage', '/workspace/api/documents', '/workspace/api/documents/{documentId}/pdf', '/workspace/api/fonts', '/workspace/api/assets', '/workspace/api/assets/content']));
  });
});
