import path from 'node:path';
import { ModelPullError } from './model-pull-error.js';

/** A hub name or path that would escape the model folder (or the hub's URL space); nothing is written. */
export class UnsafeHubPathError extends ModelPullError {
  override readonly name = 'UnsafeHubPathError';
}

const SEGMENT = /^[A-Za-z0-9._-]+$/;

/** `..`, `.`, empty (`a//b`, leading or trailing `/`), backslashes, drive letters, control characters: all refused. */
function unsafeSegment(segment: string): boolean {
  return segment === '' || segment === '.' || segment === '..' || !SEGMENT.test(segment);
}

/** A repository id is `name` or `owner/name`, each part a plain name (the hub's own rule, and it becomes a folder name). */
export function checkRepoId(repo: string): void {
  const parts = repo.split('/');
  if (parts.length > 2 || parts.some(unsafeSegment)) {
    throw new UnsafeHubPathError(`repository id '${repo}' is not owner/name with plain names (letters, digits, . _ -; no '..')`);
  }
}

/** A file path from the hub's listing or --file: relative, '/'-separated plain names only. */
export function checkRepoFilePath(file: string): void {
  if (file.split('/').some(unsafeSegment)) {
    throw new UnsafeHubPathError(`file '${file}' is not a relative path of plain names (no '..', '.', empty or absolute segments)`);
  }
}

/** Where a hub file goes in `folder`, asserted to stay inside it whatever the name says. */
export function pathInside(folder: string, file: string): string {
  checkRepoFilePath(file);
  const root = path.resolve(folder);
  const target = path.resolve(root, ...file.split('/'));
  const relative = path.relative(root, target);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new UnsafeHubPathError(`file '${file}' would be written outside ${root}`);
  }
  return target;
}

/** The hub token goes to the hub's exact origin (scheme, host and port) only: never to a CDN, never over a downgrade. */
export const sameOrigin = (url: string, endpoint: string): boolean => new URL(url).origin === new URL(endpoint).origin;
