import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** Folders no scan of the repo's own files enters: dependencies, git, scratch and build output. */
const SKIP_DIRS = new Set(['node_modules', '.git', '.tmp', 'dist', 'cdk.out']);

/** The files under `dirs` of `root` whose name `accept`s, relative to the root, sorted. */
export function listFiles(root: string, dirs: readonly string[], accept: (name: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIP_DIRS.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (accept(entry.name)) out.push(relative(root, path));
    }
  };
  for (const dir of dirs) walk(resolve(root, dir));
  return out.sort();
}
