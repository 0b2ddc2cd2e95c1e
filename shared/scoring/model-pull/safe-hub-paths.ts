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

/**
 * The hosts the Hugging Face hub redirects file downloads to (its LFS CDNs and Xet storage), reached over https.
 * RERANK_HUB_FILE_HOSTS replaces the list for another hub (comma-separated `host` or `host:port`).
 */
export const DEFAULT_HUB_FILE_HOSTS: readonly string[] = [
  'cdn-lfs.huggingface.co',
  'cdn-lfs-us-1.huggingface.co',
  'cdn-lfs-eu-1.huggingface.co',
  'cdn-lfs.hf.co',
  'cdn-lfs-us-1.hf.co',
  'cdn-lfs-eu-1.hf.co',
  'cas-bridge.xethub.hf.co',
  'transfer.xethub.hf.co',
];

export const hubFileHostsFromEnv = (env: Readonly<Record<string, string | undefined>> = process.env): readonly string[] => {
  const listed = env['RERANK_HUB_FILE_HOSTS']
    ?.split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
  return listed === undefined || listed.length === 0 ? DEFAULT_HUB_FILE_HOSTS : listed;
};

/**
 * Where a hub redirect may lead: the hub's own origin, or one of its file hosts over https; never from https to
 * http, never anywhere else (a hostile hub could otherwise make the pull GET an internal service).
 */
export function redirectAllowed(target: URL, from: URL, endpoint: string, fileHosts: readonly string[]): boolean {
  if (target.protocol !== 'https:' && target.protocol !== 'http:') return false;
  if (from.protocol === 'https:' && target.protocol !== 'https:') return false;
  if (target.origin === new URL(endpoint).origin) return true;
  return fileHosts.includes(target.host.toLowerCase());
}
