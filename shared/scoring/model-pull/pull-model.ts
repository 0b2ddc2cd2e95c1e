import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { downloadHubFile, type DownloadedFile, type DownloadProgress } from './download-hub-file.js';
import { DEFAULT_HUB_MAX_FILE_BYTES, fetchRepoInfo, selectModelFiles, type HubAccess, type ModelVariant } from './hub-repo-files.js';
import { checkRepoFilePath, checkRepoId, hubFileHostsFromEnv, pathInside } from './safe-hub-paths.js';
import { InterruptedDownloadError } from './model-pull-error.js';
import { selectPytorchFiles } from './pytorch-files.js';

export interface PullModelOptions {
  /** Hub repository id, e.g. cross-encoder/ms-marco-MiniLM-L-6-v2. */
  readonly repo: string;
  /** Model folder to write (created if missing). */
  readonly destination: string;
  /** Default 'fp32'. */
  readonly variant?: ModelVariant;
  /** Exact ONNX path in the repo, overriding variant (e.g. onnx/model_O4.onnx). */
  readonly onnxFile?: string;
  /** Pull the PyTorch checkpoint (config, tokenizer, safetensors) instead, for scripts/model/export-onnx.py. */
  readonly pytorch?: boolean;
  /** Attempts per file when the transfer breaks off; each resumes where the last stopped (default 3). */
  readonly attempts?: number;
  /** Branch, tag or commit; default main. */
  readonly revision?: string;
  /** Default: HF_ENDPOINT or https://huggingface.co. */
  readonly endpoint?: string;
  /** Default: HF_TOKEN. */
  readonly token?: string;
  readonly fetch?: typeof fetch;
  readonly onProgress?: (progress: DownloadProgress) => void;
  /** Called once per file when it is verified and in place (or already was). */
  readonly onFile?: (file: DownloadedFile & { readonly skipped: boolean }) => void;
  /** Keep files the hub gives no checksum for (CLI --allow-unverified). Default false: such a file fails the pull. */
  readonly allowUnverified?: boolean;
  /** Hosts downloads may be redirected to besides the hub (default: RERANK_HUB_FILE_HOSTS, else the Hugging Face CDNs). */
  readonly fileHosts?: readonly string[];
  /** Largest file when its size is announced nowhere (default: RERANK_HUB_MAX_FILE_BYTES, else 16 GiB). */
  readonly maxFileBytes?: number;
}

const positiveIntFromEnv = (name: string): number | undefined => {
  const value = Number(process.env[name]);
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
};

export interface PulledModel {
  readonly repo: string;
  /** Commit every file was resolved at. */
  readonly commit: string;
  readonly folder: string;
  /** The ONNX graph pulled; undefined for a PyTorch checkpoint pull. */
  readonly onnxFile: string | undefined;
  readonly files: readonly (DownloadedFile & { readonly skipped: boolean })[];
}

/** sha256sum-compatible manifest (`sha256sum -c checksums.sha256` verifies the folder). */
export const CHECKSUMS_FILE = 'checksums.sha256';
/** Where the folder came from (repo, commit, endpoint, time). */
export const PROVENANCE_FILE = 'model-pull.json';

/** The file's sha256 in hex, or undefined when there is no such file (a read error of a file that exists throws). */
export async function sha256OfFile(file: string): Promise<string | undefined> {
  try {
    await stat(file);
  } catch {
    return undefined;
  }
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Retries a download cut short; each attempt resumes from the kept .part file. */
async function withResumes<T>(attempt: () => Promise<T>, attempts: number): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof InterruptedDownloadError) || i >= attempts) throw error;
    }
  }
}

/**
 * Pulls an ONNX cross-encoder from a Hugging Face hub (or anything serving its API and resolve layout) into a
 * model folder loadOnnxCrossEncoder can read: one revision, only the files the scorer needs, streamed with
 * progress, each verified against the hub's checksum, then a checksums.sha256 manifest.
 * Files already present with the hub's sha256 are kept, so a re-run only fetches what changed.
 */
export async function pullModel(options: PullModelOptions): Promise<PulledModel> {
  // Hub names become paths: refuse any that could leave the folder before asking the hub for anything.
  checkRepoId(options.repo);
  if (options.onnxFile !== undefined) checkRepoFilePath(options.onnxFile);
  const access: HubAccess = {
    endpoint: options.endpoint ?? process.env['HF_ENDPOINT'] ?? 'https://huggingface.co',
    token: options.token ?? process.env['HF_TOKEN'],
    fileHosts: options.fileHosts ?? hubFileHostsFromEnv(),
    maxFileBytes: options.maxFileBytes ?? positiveIntFromEnv('RERANK_HUB_MAX_FILE_BYTES') ?? DEFAULT_HUB_MAX_FILE_BYTES,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  };
  const info = await fetchRepoInfo(access, options.repo, options.revision ?? 'main');
  const selected =
    options.pytorch === true ? selectPytorchFiles(info) : selectModelFiles(info, options.variant ?? 'fp32', options.onnxFile);
  const folder = path.resolve(options.destination);
  const files: (DownloadedFile & { skipped: boolean })[] = [];
  for (const sibling of selected) {
    const destination = pathInside(folder, sibling.rfilename);
    await mkdir(path.dirname(destination), { recursive: true });
    const known = sibling.lfs?.sha256?.toLowerCase();
    if (known !== undefined && (await sha256OfFile(destination)) === known) {
      const kept = {
        file: sibling.rfilename,
        bytes: (await stat(destination)).size,
        sha256: known,
        verifiedBy: 'sha256' as const,
        skipped: true,
      };
      files.push(kept);
      options.onFile?.(kept);
      continue;
    }
    const download = () =>
      downloadHubFile({
        access,
        repo: options.repo,
        revision: info.sha,
        file: sibling.rfilename,
        destination,
        expectedSize: sibling.lfs?.size ?? sibling.size,
        expectedSha256: known,
        allowUnverified: options.allowUnverified === true,
        ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
      });
    const downloaded = await withResumes(download, options.attempts ?? 3);
    files.push({ ...downloaded, skipped: false });
    options.onFile?.({ ...downloaded, skipped: false });
  }
  await writeFile(path.join(folder, CHECKSUMS_FILE), files.map((f) => `${f.sha256}  ${f.file}\n`).join(''));
  const onnxFile = selected.find((s) => s.rfilename.endsWith('.onnx'))?.rfilename;
  await writeFile(
    path.join(folder, PROVENANCE_FILE),
    `${JSON.stringify({ repo: options.repo, commit: info.sha, endpoint: access.endpoint, onnxFile, pulledAt: new Date().toISOString() }, null, 2)}\n`,
  );
  return { repo: options.repo, commit: info.sha, folder, onnxFile, files };
}
