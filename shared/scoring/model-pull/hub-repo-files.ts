import { MissingModelFileError, ModelPullError, RepoNotFoundError } from './model-pull-error.js';
import { checkRepoId, sameOrigin } from './safe-hub-paths.js';
import { MODEL_VARIANTS, ONNX_VARIANT_FILES, type ModelVariant } from '../onnx-file-names.js';

export { MODEL_VARIANTS, ONNX_VARIANT_FILES, type ModelVariant };

/** One file of a hub repository, as `GET /api/models/{repo}?blobs=true` lists it. */
export interface HubSibling {
  readonly rfilename: string;
  readonly size?: number;
  /** Present for LFS files: sha256 of the content. */
  readonly lfs?: { readonly sha256?: string; readonly size?: number };
}

export interface HubRepoInfo {
  readonly id: string;
  /** Commit the files are resolved at, so every file comes from one revision. */
  readonly sha: string;
  readonly siblings: readonly HubSibling[];
}

export interface HubAccess {
  /** e.g. https://huggingface.co (HF_ENDPOINT). */
  readonly endpoint: string;
  /** HF_TOKEN, sent as a Bearer token for private or gated repositories. */
  readonly token?: string | undefined;
  readonly fetch?: typeof fetch;
  /** Hosts a file download may be redirected to besides the hub itself (default: the Hugging Face CDNs). */
  readonly fileHosts?: readonly string[];
  /** Largest file written when neither the listing nor the response gives a size (RERANK_HUB_MAX_FILE_BYTES). */
  readonly maxFileBytes?: number;
}

/** A file larger than this is never written unless its listed size says so (16 GiB: the largest ONNX graphs with external data). */
export const DEFAULT_HUB_MAX_FILE_BYTES = 16 * 1024 ** 3;

export function authHeaders(access: HubAccess): Record<string, string> {
  return access.token ? { authorization: `Bearer ${access.token}` } : {};
}

/** Repository metadata at a revision (default main). */
export async function fetchRepoInfo(access: HubAccess, repo: string, revision = 'main'): Promise<HubRepoInfo> {
  checkRepoId(repo);
  const base = access.endpoint.replace(/\/+$/, '');
  let url = `${base}/api/models/${repo}${revision === 'main' ? '' : `/revision/${encodeURIComponent(revision)}`}?blobs=true`;
  // Redirects (a renamed repository) are followed by hand, within the hub's origin only: the token must not leave it.
  let response: Response;
  try {
    response = await (access.fetch ?? fetch)(url, { headers: authHeaders(access), redirect: 'manual' });
  } catch (error) {
    // No route, no DNS, refused: the first request says so in one line (fetch's own error is only 'fetch failed').
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new ModelPullError(
      `cannot reach ${base} (${cause?.code ?? cause?.message ?? (error as Error).message}); check the network, or HF_ENDPOINT`,
      { cause: error },
    );
  }
  for (let hop = 0; hop < 5 && response.status >= 300 && response.status < 400 && response.headers.has('location'); hop++) {
    const next = new URL(response.headers.get('location')!, url).toString();
    await response.body?.cancel();
    if (!sameOrigin(next, base))
      throw new ModelPullError(`${url}: the hub redirected to another origin (${new URL(next).origin}); not followed`);
    url = next;
    response = await (access.fetch ?? fetch)(url, { headers: authHeaders(access), redirect: 'manual' });
  }
  if (response.status === 401 || response.status === 404) {
    throw new RepoNotFoundError(
      `repository ${repo} (revision ${revision}) not found on ${base} (HTTP ${response.status}); check the id, or set HF_TOKEN for a private or gated repository`,
    );
  }
  if (!response.ok) throw new ModelPullError(`${url}: HTTP ${response.status} ${response.statusText}`);
  const info = (await response.json()) as Partial<HubRepoInfo>;
  if (!Array.isArray(info.siblings) || typeof info.sha !== 'string') {
    throw new ModelPullError(`${url}: unexpected answer (no siblings/sha); is ${base} a Hugging Face hub endpoint?`);
  }
  return { id: info.id ?? repo, sha: info.sha, siblings: info.siblings };
}

const SUPPORT_FILES = { required: ['config.json', 'tokenizer.json'], optional: ['tokenizer_config.json', 'special_tokens_map.json'] };

/**
 * External-data files of a graph: `model.onnx_data` (transformers.js, onnx-community), `model.onnx.data`
 * (optimum), and the numbered shards of graphs above 2 GB (`model.onnx_data_1`, ...).
 */
export function externalDataFiles(onnx: string, names: Iterable<string>): string[] {
  const shard = new RegExp(`^${onnx.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:_data|\\.data)(?:_\\d+)?$`);
  return [...names].filter((name) => shard.test(name)).sort();
}

/** What to do for a repository that publishes no ONNX graph at all (PyTorch / safetensors only). */
export function noOnnxExportHint(repo: string): string {
  return (
    `${repo} publishes no ONNX export. Pull its PyTorch checkpoint with --pytorch, then convert it:\n` +
    `  npm run model:pull -- ${repo} --pytorch --out models/.build/<name>-torch\n` +
    `  python3 scripts/model/export-onnx.py models/.build/<name>-torch models/<name>`
  );
}

/**
 * The files the scorer needs, and nothing else (hub repos also carry PyTorch/TF/OpenVINO weights that can be
 * many times the ONNX size): config + tokenizer files and one ONNX graph, plus its external-data file when
 * the graph was saved with one (models > 2 GB).
 */
export function selectModelFiles(info: HubRepoInfo, variant: ModelVariant, onnxFile?: string): HubSibling[] {
  const byName = new Map(info.siblings.map((s) => [s.rfilename, s]));
  const missing = SUPPORT_FILES.required.filter((name) => !byName.has(name));
  if (missing.length > 0) {
    throw new MissingModelFileError(
      `${info.id} has no ${missing.join(', ')}: the scorer needs a Hugging Face tokenizer.json and config.json`,
    );
  }
  const candidates = onnxFile === undefined ? ONNX_VARIANT_FILES[variant] : [onnxFile];
  const onnx = candidates.find((name) => byName.has(name));
  if (onnx === undefined) {
    const available = info.siblings.map((s) => s.rfilename).filter((name) => name.endsWith('.onnx'));
    if (available.length === 0) throw new MissingModelFileError(noOnnxExportHint(info.id));
    throw new MissingModelFileError(
      `${info.id} has no ${onnxFile ?? `${variant} ONNX graph`} (looked for ${candidates.join(', ')}; ONNX files in the repo: ${available.join(', ') || 'none'})`,
    );
  }
  const names = [...SUPPORT_FILES.required, ...SUPPORT_FILES.optional.filter((name) => byName.has(name)), onnx];
  names.push(...externalDataFiles(onnx, byName.keys()));
  return names.map((name) => byName.get(name)!);
}
