/** One instruction of a Dockerfile, continuation lines joined: `COPY --from=build /src/dist/libs dist/libs`. */
export type Instruction = { keyword: string; args: string };

export type Stage = { name: string | undefined; image: string; instructions: Instruction[] };

export type Dockerfile = { globalArgs: Record<string, string>; stages: Stage[] };

/**
 * Reads the subset of Dockerfile syntax the project's Dockerfiles use: comments, `\` continuations, `ARG` before
 * the first `FROM` (substituted into `FROM`), `FROM <image> AS <name>`.
 */
export function parseDockerfile(text: string): Dockerfile {
  const logicalLines: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    logicalLines.push(`${pending}${line}`.trim());
    pending = '';
  }
  if (pending !== '') throw new Error('the last instruction ends with a line continuation');

  const globalArgs: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of logicalLines) {
    const [keyword, ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    const upper = keyword.toUpperCase();
    if (upper === 'FROM') {
      const match = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      if (!match) throw new Error(`cannot read FROM ${args}`);
      const image = match[1].replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a: string | undefined, b: string | undefined) => {
        const name = a ?? b ?? '';
        if (!(name in globalArgs)) throw new Error(`FROM uses \${${name}}, which no ARG before the first FROM defines`);
        return globalArgs[name];
      });
      stages.push({ name: match[2], image, instructions: [] });
    } else if (stages.length === 0) {
      if (upper !== 'ARG') throw new Error(`${keyword} before the first FROM`);
      const [name, value = ''] = args.split('=');
      globalArgs[name] = value;
    } else {
      stages[stages.length - 1].instructions.push({ keyword: upper, args });
    }
  }
  return { globalArgs, stages };
}

/** `ENV A=1 B=2` → { A: '1', B: '2' } (values without spaces, as the project writes them). */
export function envAssignments(args: string): Record<string, string> {
  return Object.fromEntries([...args.matchAll(/(\w+)=(\S*)/g)].map((m) => [m[1], m[2]]));
}

/** The exec form `["a", "b"]` of CMD and ENTRYPOINT. */
export function execForm(args: string): string[] {
  const parsed: unknown = JSON.parse(args);
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string')) throw new Error(`not an exec form: ${args}`);
  return parsed;
}

/** A `COPY [--from=stage] <source>… <destination>` instruction. */
export function copyParts(args: string): { from: string | undefined; sources: string[]; destination: string } {
  const words = args.split(/\s+/);
  const from = words[0].startsWith('--from=') ? words.shift()?.slice('--from='.length) : undefined;
  const destination = words.pop();
  if (destination === undefined || words.length === 0) throw new Error(`COPY needs a source and a destination: ${args}`);
  return { from, sources: words, destination };
}

/**
 * Whether `.dockerignore` keeps `contextPath` (relative to the build context) out of the context: some pattern
 * matches the path or one of its parent directories. `*` and `?` stay inside one path segment, `**` crosses them;
 * `!` exceptions are not supported (the project's .dockerignore has none, and the check says so).
 */
export function excludedByDockerignore(dockerignore: string, contextPath: string): string | null {
  const patterns = dockerignore
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  if (patterns.some((p) => p.startsWith('!'))) throw new Error('.dockerignore exceptions (!pattern) are not supported by this check');
  const segments = contextPath.replace(/^\.?\//, '').replace(/\/$/, '').split('/');
  const candidates = segments.map((_, i) => segments.slice(0, i + 1).join('/'));
  for (const pattern of patterns) {
    const source = pattern
      .replace(/^\//, '')
      .replace(/\/$/, '')
      .split('**')
      .map((part) => part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]'))
      .join('.*');
    const regex = new RegExp(`^${source}$`);
    if (candidates.some((c) => regex.test(c))) return pattern;
  }
  return null;
}
