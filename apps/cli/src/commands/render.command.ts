import path from 'node:path';
import { Environment, Limits } from '@docrender/client';
import type { CommandDefinition } from '../cli/command';
import { EXIT_FAILED, EXIT_OK } from '../cli/cli-io';
import { flag, integerOption, positional, requiredString, stringOption } from '../cli/option-values';
import { UsageError } from '../cli/usage.error';
import { readDocuments } from '../input/document-data.reader';
import { renderAsync, type AsyncRenderOptions } from '../render/async-render';
import { completeRun, printRun, runFailed, type RenderRequest } from '../render/render-run';
import { renderSync } from '../render/sync-render';

const DEFAULT_SYNC_BATCH = 25;
const DEFAULT_ASYNC_BATCH = 500;
const DEFAULT_RECEIVE_GRACE_SECONDS = 45;

export const renderCommand: CommandDefinition = {
  words: ['render'],
  summary: 'Render one or many documents and write <documentName>.pdf files; exits 1 when any document is missing.',
  arguments: '<templateId> --data <file.json|file.ndjson> --out <dir>',
  help: [
    ['--data <file>', 'documents: a JSON object (one), an array, {"documents": [...]}, or NDJSON (one per line)'],
    ['--out <dir>', 'where the PDFs go (created if needed)'],
    ['--version <n>', 'the template version (default: the latest published)'],
    ['--language <code>', 'language variant of a multilingual template'],
    ['--no-persist', 'do not store the documents in the service (PDFs come back inline)'],
    ['--batch-size <n>', `documents per request (sync, default ${DEFAULT_SYNC_BATCH}) or per job (async, default ${DEFAULT_ASYNC_BATCH}); at most ${Limits.testKeyBatchCap} with a test key`],
    ['--async', 'enqueue asynchronous jobs and poll them (needs --callback-url)'],
    ['--callback-url <url>', 'where the service sends the job callbacks'],
    ['--receive <[host:]port>', 'with --async: receive the callbacks here (the callback URL must reach it) and write the PDFs'],
    ['--webhook-secret <whsec_…>', 'with --receive: the signing secret(s), comma-separated (default SERVICE_WEBHOOK_SECRET)'],
    ['--receive-grace <s>', `with --receive: how long to wait for late callbacks after the jobs end (default ${DEFAULT_RECEIVE_GRACE_SECONDS})`],
    ['--poll-interval <ms>', 'with --async: time between job status polls (default 2000)'],
  ],
  options: {
    data: { type: 'string' },
    out: { type: 'string' },
    version: { type: 'string' },
    language: { type: 'string' },
    'no-persist': { type: 'boolean' },
    'batch-size': { type: 'string' },
    async: { type: 'boolean' },
    'callback-url': { type: 'string' },
    receive: { type: 'string' },
    'webhook-secret': { type: 'string' },
    'receive-grace': { type: 'string' },
    'poll-interval': { type: 'string' },
  },
  async run({ io, output, positionals, values, client }) {
    const templateId = positional(positionals, 0, 'templateId');
    const dataFile = path.resolve(io.baseDir, requiredString(values, 'data'));
    const outDir = path.resolve(io.baseDir, requiredString(values, 'out'));
    const isAsync = flag(values, 'async');
    const callbackUrl = stringOption(values, 'callback-url');
    if (isAsync && callbackUrl === undefined) throw new UsageError('--async needs --callback-url (the service requires one)');
    if (!isAsync && callbackUrl !== undefined) throw new UsageError('--callback-url is only for --async');
    const receive = isAsync ? receiveOption(values, io.env) : null;
    if (!isAsync && stringOption(values, 'receive') !== undefined) throw new UsageError('--receive is only for --async');

    const api = client();
    const environment = api.environment;
    const cap = environment === Environment.Production ? Number.POSITIVE_INFINITY : Limits.testKeyBatchCap;
    const requestedBatch = integerOption(values, 'batch-size', 1) ?? (isAsync ? DEFAULT_ASYNC_BATCH : DEFAULT_SYNC_BATCH);
    const request: RenderRequest = {
      templateId,
      version: integerOption(values, 'version', 1),
      language: stringOption(values, 'language'),
      persist: !flag(values, 'no-persist'),
      documents: await readDocuments(dataFile),
      batchSize: Math.min(requestedBatch, cap),
      outDir,
    };
    const result = isAsync
      ? await renderAsync(api, request, output, {
          callbackUrl: callbackUrl as string,
          pollIntervalMs: integerOption(values, 'poll-interval', 100) ?? 2_000,
          receive,
        })
      : await renderSync(api, request, output);
    const run = completeRun(isAsync ? 'async' : 'sync', request, environment, result);
    printRun(run, path.relative(io.baseDir, outDir) || '.', output);
    if (isAsync && receive === null) output.line('The PDFs go to the callback URL; add --receive to write them here.');
    return runFailed(run) ? EXIT_FAILED : EXIT_OK;
  },
};

function receiveOption(values: Parameters<CommandDefinition['run']>[0]['values'], env: NodeJS.ProcessEnv): AsyncRenderOptions['receive'] {
  const text = stringOption(values, 'receive');
  if (text === undefined) return null;
  const match = /^(?:(.+):)?(\d{1,5})$/.exec(text);
  if (!match || Number(match[2]) > 65535) throw new UsageError(`--receive must be [host:]port, got '${text}'`);
  const secrets = (stringOption(values, 'webhook-secret') ?? env.SERVICE_WEBHOOK_SECRET ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (secrets.length === 0) throw new UsageError('--receive needs the webhook signing secret: --webhook-secret or SERVICE_WEBHOOK_SECRET');
  const grace = integerOption(values, 'receive-grace', 0) ?? DEFAULT_RECEIVE_GRACE_SECONDS;
  return { host: match[1] ?? '127.0.0.1', port: Number(match[2]), secrets, graceMs: grace * 1000 };
}
