// Child process of the consumer-death test (amqp-message-bus.int-spec.ts). It runs the real AmqpMessageBus from the
// TypeScript sources (compiled on the fly with SWC, path aliases resolved like the build does), consumes job.run,
// prints "received <jobId>" for the first message and never acknowledges it; the test then kills the process.
// Settings arrive as JSON in the CHILD_MESSAGING_SETTINGS environment variable.
const fs = require('node:fs');
const path = require('node:path');
const { transformSync } = require('@swc/core');

const root = path.resolve(__dirname, '../../../..');
const { compilerOptions } = require(path.join(root, 'tsconfig.base.json'));
const compileOptions = require(path.join(root, 'tools', 'swc-options.json'));

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    ...compileOptions,
    filename,
    jsc: { ...compileOptions.jsc, baseUrl: root, paths: compilerOptions.paths },
  });
  module._compile(code, filename);
};

const { AmqpMessageBus } = require('../amqp/amqp-message-bus.ts');

const logger = {
  debug: () => undefined,
  info: (message) => process.stderr.write(`${message}\n`),
  warn: (message) => process.stderr.write(`${message}\n`),
  error: (message) => process.stderr.write(`${message}\n`),
};

async function main() {
  const settings = JSON.parse(process.env.CHILD_MESSAGING_SETTINGS);
  const bus = await AmqpMessageBus.connect(settings, logger);
  await bus.consume(
    'job.run',
    (payload) => {
      process.stdout.write(`received ${payload.jobId}\n`);
      return new Promise(() => undefined);
    },
    { prefetch: 1 },
  );
  process.stdout.write('consuming\n');
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
