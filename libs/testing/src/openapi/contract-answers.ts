import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../processes/app-process';

/** One HTTP answer as a test saw it. */
export type ObservedAnswer = { method: string; url: string; status: number; headers: Headers; body: Buffer };

type MediaObject = { schema?: object };
type ResponseObject = { content?: Record<string, MediaObject> };
type Operation = { responses: Record<string, ResponseObject> };
type CallbackOperation = {
  parameters: { name: string; schema: { enum?: string[] } }[];
  requestBody: { content: Record<string, MediaObject> };
};
type Route = { template: string; pattern: RegExp; literals: number; operations: Record<string, Operation> };

const DOCUMENT_PATH = path.join(REPO_ROOT, 'docs/openapi.json');
const DOCUMENT_ID = 'openapi.json';

/**
 * Checks live answers against docs/openapi.json (issue 22: every answer the e2e suite sees validates against the
 * document). For an operation of the document: the status must be declared (or its `4XX`/`default`), the answer's
 * media type must be one the status declares, and a JSON body must validate against its schema (ajv, OpenAPI 3.0
 * `nullable`). Answers of paths the document does not describe (unknown routes, /metrics, /docs) are not part of the
 * contract and are not looked at.
 */
export class ContractAnswers {
  private readonly routes: Route[];
  private readonly ajv: Ajv;
  private readonly validators = new Map<object, ValidateFunction>();

  constructor(document: { paths: Record<string, Record<string, unknown>> } = JSON.parse(readFileSync(DOCUMENT_PATH, 'utf8'))) {
    this.ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.ajv);
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema(document, DOCUMENT_ID);
    this.routes = Object.entries(document.paths)
      .map(([template, operations]) => ({
        template,
        pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
        literals: template.split('/').filter((segment) => segment !== '' && !segment.startsWith('{')).length,
        operations: operations as Record<string, Operation>,
      }))
      .sort((a, b) => b.literals - a.literals);
  }

  /** The problems of one answer against the document; empty when it conforms or the document does not describe it. */
  problemsOf(answer: ObservedAnswer): string[] {
    const pathname = new URL(answer.url).pathname;
    const route = this.routes.find((r) => r.pattern.test(pathname));
    const operation = route?.operations[answer.method.toLowerCase()];
    if (route === undefined || operation === undefined) return [];
    const at = `${answer.method} ${route.template} → ${answer.status}`;
    const response = operation.responses[String(answer.status)] ?? operation.responses[`${String(answer.status)[0]}XX`] ?? operation.responses.default;
    if (response === undefined) return [`${at}: status not declared (declared: ${Object.keys(operation.responses).join(', ')})`];
    const contentType = answer.headers.get('content-type')?.split(';')[0].trim().toLowerCase();
    if (response.content === undefined) {
      return answer.body.length === 0 ? [] : [`${at}: declares no body, got ${answer.body.length} bytes of ${contentType ?? 'no content type'}`];
    }
    const media = contentType === undefined ? undefined : response.content[contentType];
    if (media === undefined) return [`${at}: content type ${contentType ?? '(none)'} not declared (declared: ${Object.keys(response.content).join(', ')})`];
    if (contentType !== 'application/json' || media.schema === undefined) return [];
    let body: unknown;
    try {
      body = JSON.parse(answer.body.toString('utf8'));
    } catch {
      return [`${at}: the body is not JSON`];
    }
    const validate = this.validatorOf(media.schema);
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${at}: body${e.instancePath} ${e.message ?? 'is invalid'} ${JSON.stringify(e.params)}`);
  }

  /**
   * The problems of one callback the service sent (part 6) against the `callbacks` of the enqueue operation: the
   * callback whose X-Service-Event enum holds `event` must exist, and the JSON body must validate against its schema.
   */
  callbackProblems(event: string, rawBody: string): string[] {
    const enqueue = this.routes.find((r) => r.template === '/v1/render/{templateId}/async')?.operations.post as
      | (Operation & { callbacks?: Record<string, Record<string, { post: CallbackOperation }>> })
      | undefined;
    const callbacks = Object.values(enqueue?.callbacks ?? {}).flatMap((c) => Object.values(c).map((item) => item.post));
    const declared = callbacks.find((c) => c.parameters.some((p) => p.name === 'X-Service-Event' && (p.schema.enum ?? []).includes(event)));
    if (declared === undefined) return [`callback ${event}: no callback of the document sends this event`];
    const schema = declared.requestBody.content['application/json']?.schema;
    if (schema === undefined) return [`callback ${event}: the document declares no JSON body`];
    let body: unknown;
    try {
      body = JSON.parse(rawBody);
    } catch {
      return [`callback ${event}: the body is not JSON`];
    }
    const validate = this.validatorOf(schema);
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `callback ${event}: body${e.instancePath} ${e.message ?? 'is invalid'} ${JSON.stringify(e.params)}`);
  }

  /** Throws with every problem of the answer (a test helper's way to fail the test that received it). */
  check(answer: ObservedAnswer): void {
    const problems = this.problemsOf(answer);
    if (problems.length > 0) throw new Error(`answer does not match docs/openapi.json:\n  ${problems.join('\n  ')}`);
  }

  private validatorOf(schema: object): ValidateFunction {
    let validate = this.validators.get(schema);
    if (validate === undefined) {
      // Refs in the document are local (`#/components/schemas/…`): resolve them against the document itself.
      const rooted = JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, `"$ref":"${DOCUMENT_ID}#/`)) as object;
      validate = this.ajv.compile(rooted);
      this.validators.set(schema, validate);
    }
    return validate;
  }
}

let shared: ContractAnswers | undefined;

/** Fails (throws) when an answer does not match docs/openapi.json; the document is read once per test file. */
export function expectAnswerMatchesContract(answer: ObservedAnswer): void {
  shared ??= new ContractAnswers();
  shared.check(answer);
}

/** Fails (throws) when a callback body does not match the document's callback of its event. */
export function expectCallbackMatchesContract(event: string, rawBody: string): void {
  shared ??= new ContractAnswers();
  const problems = shared.callbackProblems(event, rawBody);
  if (problems.length > 0) throw new Error(`callback does not match docs/openapi.json:\n  ${problems.join('\n  ')}`);
}

/**
 * A `fetch` for clients under test (e.g. the SDK's `fetch` option): every answer is checked against docs/openapi.json
 * before the client reads it; a mismatch rejects the call.
 */
export const contractCheckedFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
  const body = Buffer.from(await response.clone().arrayBuffer());
  expectAnswerMatchesContract({ method, url: response.url, status: response.status, headers: response.headers, body });
  return response;
};
