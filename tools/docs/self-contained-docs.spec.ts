import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** The Markdown a reader of the repository is given: the READMEs and docs/. */
function guides(): string[] {
  const docs = readdirSync(path.join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')).map((f) => path.join('docs', f));
  return ['README.md', 'libs/client/README.md', 'deploy/README.md', ...docs];
}

/** `[text](target)` links outside fenced code blocks, with their line numbers. */
function linksOf(file: string): { line: number; target: string }[] {
  let fenced = false;
  return readFileSync(path.join(ROOT, file), 'utf8')
    .split('\n')
    .flatMap((text, index) => {
      if (text.trimStart().startsWith('```')) fenced = !fenced;
      if (fenced) return [];
      return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => ({ line: index + 1, target: m[1] }));
    });
}

describe('self-contained documentation (issue 22: no link leaves the repository)', () => {
  it('every link of the READMEs and docs/ points at a file or folder of the repository (or an anchor), none outside it', () => {
    const broken = guides().flatMap((file) =>
      linksOf(file)
        .filter(({ target }) => {
          if (target.startsWith('#')) return false;
          if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return true;
          const resolved = path.resolve(ROOT, path.dirname(file), target.split('#')[0]);
          return !resolved.startsWith(`${ROOT}${path.sep}`) || !existsSync(resolved);
        })
        .map(({ line, target }) => `${file}:${line} → ${target}`),
    );
    expect(broken).toEqual([]);
  });
});
