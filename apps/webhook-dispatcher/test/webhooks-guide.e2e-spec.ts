import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { WebhookHeader } from '@docrender/contracts';
import { computeSignature, WebhookSigner } from '@docrender/webhooks';
import { randomUUID } from 'node:crypto';

const GUIDE = path.resolve(__dirname, '../../../docs/webhooks.md');
const ACTIVE = 'whsec_guide_active_secret';
const PREVIOUS = 'whsec_guide_previous_secret';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** docs/webhooks.md: the runnable receiver is run as written, against callbacks signed by the service's signer. */
describe('docs/webhooks.md receiver example (spec 6.4 receiver rules)', () => {
  let dir: string;
  let child: ChildProcess;
  let output = '';
  let url: string;

  beforeAll(async () => {
    const guide = await readFile(GUIDE, 'utf8');
    const block = /```js\n(\/\/ webhook-receiver\.mjs[\s\S]*?)```/.exec(guide);
    if (!block) throw new Error('docs/webhooks.md has no webhook-receiver.mjs block');
    dir = await mkdtemp(path.join(os.tmpdir(), 'docrender-guide-'));
    await writeFile(path.join(dir, 'webhook-receiver.mjs'), block[1]);
    const port = await freePort();
    url = `http://127.0.0.1:${port}/hook`;
    child = spawn(process.execPath, [path.join(dir, 'webhook-receiver.mjs')], {
      env: { PATH: process.env.PATH ?? '', WEBHOOK_SECRETS: `${ACTIVE},${PREVIOUS}`, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    const deadline = Date.now() + 10_000;
    while (!output.includes('listening')) {
      if (Date.now() > deadline) throw new Error(`the example did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  afterAll(async () => {
    child?.kill();
    await rm(dir, { recursive: true, force: true });
  });

  const body = JSON.stringify({ jobId: 'a7c3', processed: 1, requestedCount: 2, documentIndex: 0, document: { viewUrl: 'https://x/y', id: 'd1' } });
  const completion = JSON.stringify({ jobId: 'a7c3', state: 'completed', status: 'ok', renderedCount: 2, requestedCount: 2, missingCount: 0, message: 'm', issues: [] });
  const now = () => Math.floor(Date.now() / 1000);

  async function post(rawBody: string, signature: string | null, delivery = randomUUID(), event = 'render.progress'): Promise<number> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', [WebhookHeader.Event]: event, [WebhookHeader.Delivery]: delivery };
    if (signature !== null) headers[WebhookHeader.Signature] = signature;
    return (await fetch(url, { method: 'POST', headers, body: rawBody })).status;
  }

  it('6.4: a callback signed by the service (active and previous secret) is accepted and processed once per delivery id', async () => {
    const delivery = randomUUID();
    const signature = new WebhookSigner().sign(body, { active: ACTIVE, previous: PREVIOUS });
    expect(await post(body, signature, delivery)).toBe(204);
    expect(await post(body, new WebhookSigner().sign(body, { active: ACTIVE }), delivery)).toBe(204);
    expect(await post(completion, new WebhookSigner().sign(completion, { active: PREVIOUS }), randomUUID(), 'render.completed')).toBe(204);
    await new Promise((r) => setTimeout(r, 200));
    expect(output.match(/progress a7c3 document 0/g)).toHaveLength(1);
    expect(output).toContain('render.completed a7c3: ok, 2/2 rendered');
  });

  it('6.4 rule 5: a v2 entry is ignored, not an error', async () => {
    const t = now();
    expect(await post(body, `t=${t},v2=deadbeef,v1=${computeSignature(ACTIVE, t, body)}`)).toBe(204);
  });

  it('6.4 rules 1, 3 and 6: a changed body, a foreign secret, a stale or future t, or no header is 400', async () => {
    const t = now();
    expect(await post(`${body} `, `t=${t},v1=${computeSignature(ACTIVE, t, body)}`)).toBe(400);
    expect(await post(body, `t=${t},v1=${computeSignature('whsec_someone_else', t, body)}`)).toBe(400);
    // past the 300 s tolerance by more than the whole seconds a slow machine can add between signing and checking
    const stale = now() - 310;
    expect(await post(body, `t=${stale},v1=${computeSignature(ACTIVE, stale, body)}`)).toBe(400);
    const future = now() + 310;
    expect(await post(body, `t=${future},v1=${computeSignature(ACTIVE, future, body)}`)).toBe(400);
    expect(await post(body, null)).toBe(400);
    expect(await post(body, `t=${t}`)).toBe(400);
  });

  it('the test vector of the guide holds', async () => {
    const guide = await readFile(GUIDE, 'utf8');
    const vectorBody = /```\n(\{"jobId":"3f2b8c1e[^\n]*)\n```/.exec(guide)?.[1];
    expect(vectorBody).toBeDefined();
    expect(new WebhookSigner().sign(vectorBody!, { active: 'whsec_docs_example_active', previous: 'whsec_docs_example_previous' }, 1767225600)).toBe(
      't=1767225600,v1=dde15fd5a831b7402a6ac5f5ca6fac6353f2634048778010fc68b139da306da4,v1=26b5742540e4582f2eeba2c156f7f3cf0aec2e0a56a003a681d7458ee9a5e9be',
    );
  });
});
