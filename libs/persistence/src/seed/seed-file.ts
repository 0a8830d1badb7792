import { promises as fs } from 'node:fs';
import path from 'node:path';
import { assetNameProblem } from '@docrender/organisation-resources';
import { checkDocumentNameTemplate } from '@docrender/template-dsl/checks';
import { apiKeyProblem } from '../api-keys/api-key-secret';
import { webhookSecretProblem } from '../api-keys/webhook-secret-generator';

/** `{ "file": "relative/path.json" }`: JSON read from a file, relative to the seed file's directory. */
export type FileReference = { file: string };

export type SeedVersion = {
  /** The template DSL (a JSON object) or a file reference. */
  template: Record<string, unknown> | FileReference;
  /** `{ data, i18n }` (each member may itself be a file reference); default `{ "data": {}, "i18n": {} }`. */
  sampleData?: Record<string, unknown> | FileReference;
  /** Translation strings, or null (default). */
  translations?: Record<string, unknown> | FileReference | null;
  documentNameTemplate?: string | null;
  /** Published (true) or draft (false, default). */
  published?: boolean;
};

export type SeedTemplate = {
  id?: string;
  name: string;
  documentNameTemplate?: string | null;
  /** The version list: entry i is versionNumber i + 1. */
  versions?: SeedVersion[];
};

export type SeedProject = { id?: string; name: string; templates?: SeedTemplate[] };

/** An image or PDF stored as an organisation asset (`asset:<name>` in templates); `file` is relative to the seed file. */
export type SeedAsset = { name: string; file: string };

export type SeedOrganisation = {
  id?: string;
  name: string;
  tier?: string;
  includedRendersPerMonth?: number;
  includedTokensPerMonth?: number;
  pagesUsedThisPeriod?: number;
  retentionDays?: number | null;
  userCount?: number;
  apiKeys?: string[];
  webhookSecret?: string;
  projects?: SeedProject[];
  /** Templates outside any project. */
  templates?: SeedTemplate[];
  /** Images and PDFs stored in the blob store as organisation assets (by the seed command, after the database). */
  assets?: SeedAsset[];
};

export type SeedFile = { organisations: SeedOrganisation[] };

/** A seed file problem; the message starts with the path of the bad entry, e.g. `organisations[0].apiKeys[1]: …`. */
export class SeedFileError extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`${path}: ${problem}`);
    this.name = 'SeedFileError';
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objectAt(value: unknown, at: string, allowed: readonly string[]): Json {
  if (!isObject(value)) throw new SeedFileError(at, 'must be an object');
  const unknownKey = Object.keys(value).find((k) => !allowed.includes(k));
  if (unknownKey !== undefined) throw new SeedFileError(`${at}.${unknownKey}`, `unknown field (allowed: ${allowed.join(', ')})`);
  return value;
}

function arrayAt(value: unknown, at: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new SeedFileError(at, 'must be an array');
  return value;
}

function stringAt(value: unknown, at: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new SeedFileError(at, 'must be a non-empty string');
  return value;
}

function optionalUuid(value: unknown, at: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !UUID.test(value)) throw new SeedFileError(at, 'must be a UUID');
  return value.toLowerCase();
}

function optionalCount(value: unknown, at: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > 2_147_483_647) {
    throw new SeedFileError(at, `must be a whole number >= ${min}`);
  }
  return value;
}

function optionalNullableString(value: unknown, at: string): string | null | undefined {
  if (value === undefined || value === null) return value;
  if (typeof value !== 'string') throw new SeedFileError(at, 'must be a string or null');
  return value;
}

/** True for `{ "file": "<path>" }` (exactly one member, a string). */
export function isFileReference(value: unknown): value is FileReference {
  return isObject(value) && Object.keys(value).length === 1 && typeof value.file === 'string';
}

function jsonOrFile(value: unknown, at: string): Json | FileReference {
  if (!isObject(value)) throw new SeedFileError(at, 'must be a JSON object or { "file": "<relative path>" }');
  if ('file' in value && Object.keys(value).length === 1) return { file: stringAt(value.file, `${at}.file`) };
  return value;
}

function parseVersion(value: unknown, at: string): SeedVersion {
  const v = objectAt(value, at, ['template', 'sampleData', 'translations', 'documentNameTemplate', 'published']);
  if (v.template === undefined) throw new SeedFileError(`${at}.template`, 'is required');
  if (v.published !== undefined && typeof v.published !== 'boolean') throw new SeedFileError(`${at}.published`, 'must be true or false');
  return {
    template: jsonOrFile(v.template, `${at}.template`),
    sampleData: v.sampleData === undefined ? undefined : jsonOrFile(v.sampleData, `${at}.sampleData`),
    translations: v.translations === undefined || v.translations === null ? null : jsonOrFile(v.translations, `${at}.translations`),
    documentNameTemplate: optionalNullableString(v.documentNameTemplate, `${at}.documentNameTemplate`) ?? null,
    published: v.published ?? false,
  };
}

/** A template's naming pattern, refused (as a render would ignore it) when its bindings do not parse. */
function documentNameTemplateAt(value: unknown, at: string): string | null | undefined {
  const pattern = optionalNullableString(value, at);
  const [error] = checkDocumentNameTemplate(pattern, at);
  if (error) throw new SeedFileError(at, error.message);
  return pattern;
}

function parseTemplate(value: unknown, at: string): SeedTemplate {
  const t = objectAt(value, at, ['id', 'name', 'documentNameTemplate', 'versions']);
  return {
    id: optionalUuid(t.id, `${at}.id`),
    name: stringAt(t.name, `${at}.name`),
    documentNameTemplate: documentNameTemplateAt(t.documentNameTemplate, `${at}.documentNameTemplate`),
    versions: arrayAt(t.versions, `${at}.versions`).map((v, i) => parseVersion(v, `${at}.versions[${i}]`)),
  };
}

function parseOrganisation(value: unknown, at: string): SeedOrganisation {
  const o = objectAt(value, at, [
    'id',
    'name',
    'tier',
    'includedRendersPerMonth',
    'includedTokensPerMonth',
    'pagesUsedThisPeriod',
    'retentionDays',
    'userCount',
    'apiKeys',
    'webhookSecret',
    'projects',
    'templates',
    'assets',
  ]);
  const apiKeys = arrayAt(o.apiKeys, `${at}.apiKeys`).map((k, i) => {
    const key = stringAt(k, `${at}.apiKeys[${i}]`);
    const problem = apiKeyProblem(key);
    if (problem) throw new SeedFileError(`${at}.apiKeys[${i}]`, problem);
    return key;
  });
  let webhookSecret: string | undefined;
  if (o.webhookSecret !== undefined) {
    webhookSecret = stringAt(o.webhookSecret, `${at}.webhookSecret`);
    const problem = webhookSecretProblem(webhookSecret);
    if (problem) throw new SeedFileError(`${at}.webhookSecret`, problem);
  }
  return {
    id: optionalUuid(o.id, `${at}.id`),
    name: stringAt(o.name, `${at}.name`),
    tier: o.tier === undefined ? undefined : stringAt(o.tier, `${at}.tier`),
    includedRendersPerMonth: optionalCount(o.includedRendersPerMonth, `${at}.includedRendersPerMonth`, 0),
    includedTokensPerMonth: optionalCount(o.includedTokensPerMonth, `${at}.includedTokensPerMonth`, 0),
    pagesUsedThisPeriod: optionalCount(o.pagesUsedThisPeriod, `${at}.pagesUsedThisPeriod`, 0),
    retentionDays: o.retentionDays === null ? null : optionalCount(o.retentionDays, `${at}.retentionDays`, 1),
    userCount: optionalCount(o.userCount, `${at}.userCount`, 0),
    apiKeys,
    webhookSecret,
    projects: arrayAt(o.projects, `${at}.projects`).map((p, i) => {
      const pat = `${at}.projects[${i}]`;
      const project = objectAt(p, pat, ['id', 'name', 'templates']);
      return {
        id: optionalUuid(project.id, `${pat}.id`),
        name: stringAt(project.name, `${pat}.name`),
        templates: arrayAt(project.templates, `${pat}.templates`).map((t, j) => parseTemplate(t, `${pat}.templates[${j}]`)),
      };
    }),
    templates: arrayAt(o.templates, `${at}.templates`).map((t, j) => parseTemplate(t, `${at}.templates[${j}]`)),
    assets: parseAssets(o.assets, `${at}.assets`),
  };
}

function parseAssets(value: unknown, at: string): SeedAsset[] {
  const assets = arrayAt(value, at).map((a, i) => {
    const asset = objectAt(a, `${at}[${i}]`, ['name', 'file']);
    const name = stringAt(asset.name, `${at}[${i}].name`);
    const problem = assetNameProblem(name);
    if (problem) throw new SeedFileError(`${at}[${i}].name`, problem);
    return { name, file: stringAt(asset.file, `${at}[${i}].file`) };
  });
  const names = new Set<string>();
  for (const [i, asset] of assets.entries()) {
    if (names.has(asset.name)) throw new SeedFileError(`${at}[${i}].name`, `'${asset.name}' is listed twice`);
    names.add(asset.name);
  }
  return assets;
}

/** Checks the shape of a parsed seed file; throws SeedFileError naming the first bad entry. */
export function parseSeedFile(value: unknown): SeedFile {
  const root = objectAt(value, '(root)', ['organisations']);
  if (!Array.isArray(root.organisations)) throw new SeedFileError('organisations', 'must be an array');
  return { organisations: root.organisations.map((o, i) => parseOrganisation(o, `organisations[${i}]`)) };
}

/** Reads and parses a seed file; errors name the file or the bad entry. */
export async function readSeedFile(file: string): Promise<SeedFile> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new SeedFileError(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SeedFileError(file, `is not valid JSON (${(error as Error).message})`);
  }
  return parseSeedFile(json);
}

/** The JSON object a value stands for: itself, or the content of the referenced file (relative to `baseDir`). */
export async function resolveJson(value: Json | FileReference, baseDir: string, at: string): Promise<Json> {
  if (!isFileReference(value)) return value;
  const file = path.resolve(baseDir, value.file);
  let parsed: unknown;
  try {
    parsed = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (error) {
    const reason = error instanceof SyntaxError ? `is not valid JSON (${error.message})` : `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
    throw new SeedFileError(`${at}.file`, `${value.file} ${reason}`);
  }
  if (!isObject(parsed)) throw new SeedFileError(`${at}.file`, `${value.file} must contain a JSON object`);
  return parsed;
}
