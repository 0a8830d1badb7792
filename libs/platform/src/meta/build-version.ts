import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The deployed build version for GET /v1/meta/version: `BUILD_VERSION` (set by the image build), else the root
 * package.json version, else `unknown` (spec 2.13).
 */
export function buildVersion(env: NodeJS.ProcessEnv = process.env, searchFrom: string = __dirname): string {
  const fromEnv = env.BUILD_VERSION?.trim();
  if (fromEnv) return fromEnv;
  let dir = searchFrom;
  for (let i = 0; i < 8; i++) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'docrender' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // not here; look one level up
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return 'unknown';
}
