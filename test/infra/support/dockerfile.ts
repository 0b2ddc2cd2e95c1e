/** The instructions of a Dockerfile that the scoring image's rules look at (comments and continuations handled). */
export interface ParsedDockerfile {
  readonly instructions: readonly { readonly keyword: string; readonly args: string }[];
  /** Every FROM image reference, as written. */
  readonly from: readonly string[];
  /** COPY sources relative to the build context (trailing `/` dropped), from every COPY. */
  readonly copySources: readonly string[];
  /** COPY destinations, as written. */
  readonly copyTargets: readonly string[];
  /** CMD in exec (JSON) form, or undefined when absent or in shell form. */
  readonly cmd: readonly string[] | undefined;
}

export function parseDockerfile(text: string): ParsedDockerfile {
  const logical = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const instructions = logical.map((line) => {
    const [keyword = '', ...rest] = line.split(/\s+/);
    return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
  });
  const copies = instructions.filter((i) => i.keyword === 'COPY').map((i) => i.args.split(/\s+/).filter((a) => !a.startsWith('--')));
  const cmdArgs = instructions.find((i) => i.keyword === 'CMD')?.args;
  let cmd: string[] | undefined;
  try {
    const parsed: unknown = cmdArgs === undefined ? undefined : JSON.parse(cmdArgs);
    cmd = Array.isArray(parsed) && parsed.every((p) => typeof p === 'string') ? parsed : undefined;
  } catch {
    cmd = undefined;
  }
  return {
    instructions,
    from: instructions.filter((i) => i.keyword === 'FROM').map((i) => i.args.split(/\s+/)[0] ?? ''),
    copySources: copies.flatMap((args) => args.slice(0, -1).map((s) => s.replace(/\/$/, ''))),
    copyTargets: copies.map((args) => args[args.length - 1] ?? ''),
    cmd,
  };
}
