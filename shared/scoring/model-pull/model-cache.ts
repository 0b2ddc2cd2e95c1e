import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { DownloadedFile, DownloadProgress } from './download-hub-file.js';
import type { ModelVariant } from './hub-repo-files.js';
import { CHECKSUMS_FILE, PROVENANCE_FILE, pullModel, sha256OfFile, type PulledModel } from './pull-model.js';
import { checkRepoId, pathInside, UnsafeHubPathError } from './safe-hub-paths.js';

/** One ONNX export of a hub repository at one revision: what a cached model folder holds. */
export interface HubModelRef {
  readonly repo: string;
  /** Branch, tag or commit, as model:pull --revision. */
  readonly revision: string;
  readonly variant: ModelVariant;
}

/**
 * Where pulled models are kept between runs, outside any checkout (a model is not source, and a checkout's
 * `git clean` must not cost a re-download): RERANK_MODEL_CACHE, else the XDG cache directory.
 */
export function modelCacheDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const explicit = env['RERANK_MODEL_CACHE']?.trim();
  if (explicit) return path.resolve(explicit);
  const xdg = env['XDG_CACHE_HOME']?.trim();
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(env['HOME']?.trim() || homedir(), '.cache');
  return path.join(base, 'rerank-service', 'models');
}

/**
 * One folder per repo + revision + variant: <cache>/<owner>/<name>/<revision>/<variant>. The revision is
 * URI-encoded into one segment (refs/pr/1 -> refs%2Fpr%2F1), so the depth is fixed and no two refs share a folder.
 */
export function cachedModelFolder(cacheDir: string, ref: HubModelRef): string {
  checkRepoId(ref.repo);
  const revision = encodeURIComponent(ref.revision);
  if (revision === '' || revision === '.' || revision === '..')
    throw new UnsafeHubPathError(`revision '${ref.revision}' is not a branch, tag or commit name`);
  return path.join(path.resolve(cacheDir), ...ref.repo.split('/'), revision, ref.variant);
}

/**
 * Whether `folder` is a finished model:pull of `repo`: its provenance names the repo and every file of its
 * checksum manifest is there with that sha256 (`sha256sum -c checksums.sha256`). pullModel writes both only
 * after every file is verified, so an interrupted pull (a .part file, no manifest) is never taken for complete.
 */
export async function isCompletePull(folder: string, repo: string): Promise<boolean> {
  let manifest: string;
  try {
    const provenance = JSON.parse(await readFile(path.join(folder, PROVENANCE_FILE), 'utf8')) as { repo?: unknown; onnxFile?: unknown };
    if (provenance.repo !== repo || typeof provenance.onnxFile !== 'string') return false;
    manifest = await readFile(path.join(folder, CHECKSUMS_FILE), 'utf8');
  } catch {
    return false;
  }
  const lines = manifest.split('\n').filter((line) => line.trim() !== '');
  if (lines.length === 0) return false;
  for (const line of lines) {
    const match = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (match === null) return false;
    let file: string;
    try {
      file = pathInside(folder, match[2]!);
    } catch {
      return false;
    }
    // Unreadable (a directory, no permission) is as incomplete as missing.
    if ((await sha256OfFile(file).catch(() => undefined)) !== match[1]) return false;
  }
  return true;
}

export interface CachedModel {
  readonly folder: string;
  /** The pull that filled the folder; undefined when the cache already held it (nothing was fetched). */
  readonly pulled: PulledModel | undefined;
}

export interface EnsureCachedModelOptions {
  readonly cacheDir: string;
  /** Default: HF_ENDPOINT or https://huggingface.co (as model:pull). */
  readonly endpoint?: string;
  readonly token?: string;
  readonly fetch?: typeof fetch;
  /** Called once, before anything is fetched (model:pull's "pulling ..." line). */
  readonly onStart?: (ref: HubModelRef, folder: string) => void;
  readonly onProgress?: (progress: DownloadProgress) => void;
  readonly onFile?: (file: DownloadedFile & { readonly skipped: boolean }) => void;
}

/**
 * The cached folder of `ref`, pulled with model:pull's code only when it is not complete: a complete folder
 * costs no request at all (synth works offline), a partial one is resumed (kept files and .part files).
 */
export async function ensureCachedModel(ref: HubModelRef, options: EnsureCachedModelOptions): Promise<CachedModel> {
  const folder = cachedModelFolder(options.cacheDir, ref);
  if (await isCompletePull(folder, ref.repo)) return { folder, pulled: undefined };
  options.onStart?.(ref, folder);
  const pulled = await pullModel({
    repo: ref.repo,
    revision: ref.revision,
    variant: ref.variant,
    destination: folder,
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
    ...(options.token === undefined ? {} : { token: options.token }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    ...(options.onFile === undefined ? {} : { onFile: options.onFile }),
  });
  return { folder, pulled };
}
