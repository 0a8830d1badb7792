import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { openApiJson } from './openapi-document';

/** `npm run docs:openapi`: writes docs/openapi.json from the gateway's controllers. */
async function main(): Promise<void> {
  const target = path.resolve(process.argv[2] ?? 'docs/openapi.json');
  writeFileSync(target, await openApiJson());
  process.stdout.write(`OpenAPI document written to ${target}\n`);
  process.exit(0);
}

void main();
