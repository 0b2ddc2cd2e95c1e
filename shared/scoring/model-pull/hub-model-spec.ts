import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, HUB_PREFIX } from '../../config/service-config.js';
import { ONNX_FILE_CANDIDATES, ONNX_VARIANT_FILES } from '../onnx-file-names.js';
import { MODEL_VARIANTS, type ModelVariant } from './hub-repo-files.js';
import { ensureCachedModel, modelCacheDir, type EnsureCachedModelOptions, type HubModelRef } from './model-cache.js';
import { ModelPullError } from './model-pull-error.js';
import { fileDonePrinter, progressPrinter, type ProgressStream } from './pull-progress.js';

export { HUB_PREFIX };

/**
 * The variants a served folder loads without being told which file (model-folder.ts tries ONNX_FILE_CANDIDATES):
 * fp16 and q4 graphs would be pulled and then not found at cold start, so they are refused up front.
 */
export const SERVABLE_VARIANTS: readonly ModelVariant[] = MODEL_VARIANTS.filter((v) =>
  ONNX_VARIANT_FILES[v].some((f) => ONNX_FILE_CANDIDATES.includes(f)),
);

const HUB_SYNTAX = `${HUB_PREFIX}owner/name[@revision][:variant]`;
// Git ref names cannot hold ':', so the variant after the last ':' is unambiguous.
const HUB_REF = /^([A-Za-z0-9._-]+\/[A-Za-z0-9._-]+)(?:@([A-Za-z0-9._/-]+))?(?::([A-Za-z0-9]+))?$/;

type Parsed = { readonly ref: HubModelRef } | { readonly problem: string } | undefined;

/** owner/name[@revision][:variant] -> a ref, a problem to report, or undefined when it is not shaped like one. */
function parseHubRef(text: string): Parsed {
  const match = HUB_REF.exec(text);
  if (match === null) return undefined;
  const [, repo, revision = 'main', variant = 'fp32'] = match;
  if (
    repo!.split('/').some((part) => part === '.' || part === '..') ||
    revision.split('/').some((part) => part === '' || part === '.' || part === '..')
  ) {
    return { problem: `'${text}' has an empty, '.' or '..' part` };
  }
  if (!(SERVABLE_VARIANTS as readonly string[]).includes(variant)) {
    return {
      problem: `variant '${variant}' cannot be served: a model folder loads ${SERVABLE_VARIANTS.join(', ')} (as model:pull --variant)`,
    };
  }
  return { ref: { repo: repo!, revision, variant: variant as ModelVariant } };
}

export interface ResolveHubModelsOptions extends Omit<EnsureCachedModelOptions, 'cacheDir'> {
  /** Folders are relative to this (the project root for synth, the code root for npm start). */
  readonly root: string;
  /** See modelCacheDir (RERANK_MODEL_CACHE, else ~/.cache/rerank-service/models). */
  readonly cacheDir: string;
}

type Entry = { readonly kind: 'keep' } | { readonly kind: 'hub'; readonly ref: HubModelRef; readonly bare: boolean; readonly spec: string };

function classify(entry: string, id: string, spec: string, root: string): Entry {
  if (spec === 'lexical' || spec === 'bm25' || spec.startsWith('hybrid:')) return { kind: 'keep' };
  if (spec.startsWith(HUB_PREFIX)) {
    const parsed = parseHubRef(spec.slice(HUB_PREFIX.length));
    if (parsed === undefined)
      throw new ConfigError(`RERANK_MODELS entry '${entry}' must be ${id}=${HUB_SYNTAX} (variant one of ${SERVABLE_VARIANTS.join(', ')})`);
    if ('problem' in parsed) throw new ConfigError(`RERANK_MODELS entry '${entry}': ${parsed.problem}`);
    return { kind: 'hub', ref: parsed.ref, bare: false, spec };
  }
  // A folder that exists always wins: `models/x` stays the committed folder even though it looks like owner/name.
  const folder = path.resolve(root, spec);
  if (existsSync(folder)) return { kind: 'keep' };
  const parsed = parseHubRef(spec);
  if (parsed !== undefined && 'ref' in parsed) return { kind: 'hub', ref: parsed.ref, bare: true, spec };
  throw new ConfigError(
    `RERANK_MODELS entry '${entry}' is neither a model folder (there is no ${folder}) nor a Hub repo id (${HUB_SYNTAX}${parsed !== undefined && 'problem' in parsed ? `: ${parsed.problem}` : ''})`,
  );
}

/**
 * Rewrites the Hub repo ids of a RERANK_MODELS spec into the folders they are cached in, pulling (with
 * model:pull's code, progress and errors) those not complete in the cache; folders, `lexical` and hybrids are
 * left as written, so the result is a plain spec that loadServiceConfig and the bundler read as before.
 * A spec whose hub folders are all cached makes no network request.
 */
export async function resolveHubModels(spec: string, options: ResolveHubModelsOptions): Promise<string> {
  const entries = spec
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const resolved: string[] = [];
  for (const entry of entries) {
    const eq = entry.indexOf('=');
    // Malformed entries are loadServiceConfig's to report, with its usual message.
    const classified =
      eq <= 0 ? ({ kind: 'keep' } as const) : classify(entry, entry.slice(0, eq).trim(), entry.slice(eq + 1).trim(), options.root);
    if (classified.kind === 'keep') {
      resolved.push(entry);
      continue;
    }
    const { folder } = await ensureCached(entry, classified, options);
    // The spec is comma/equals separated and settings refuse whitespace: a cache path holding either cannot be listed.
    if (/[\s,=]/.test(folder))
      throw new ConfigError(`model cache folder ${folder} holds a space, ',' or '=': set RERANK_MODEL_CACHE to a folder without them`);
    resolved.push(`${entry.slice(0, eq).trim()}=${folder}`);
  }
  return resolved.join(',');
}

async function ensureCached(
  entry: string,
  hub: Extract<Entry, { kind: 'hub' }>,
  options: ResolveHubModelsOptions,
): Promise<{ folder: string }> {
  try {
    return await ensureCachedModel(hub.ref, options);
  } catch (error) {
    if (!(error instanceof ModelPullError)) throw error;
    // A bare owner/name may just be a folder the deployer has not pulled yet: say both readings failed.
    const what = hub.bare ? ` is no model folder (there is no ${path.resolve(options.root, hub.spec)}), and as a Hub repo id:` : ':';
    throw new ModelPullError(`RERANK_MODELS entry '${entry}'${what} ${error.message}`, { cause: error });
  }
}

export interface ResolveHubModelsFromEnvOptions {
  readonly root: string;
  /** RERANK_MODEL_CACHE / XDG_CACHE_HOME / HOME for the cache; HF_ENDPOINT / HF_TOKEN for the pull (as model:pull). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where model:pull's "pulling ..." and progress lines go. */
  readonly progress: ProgressStream;
}

/** resolveHubModels as `cdk synth` and `npm start` run it: configured from the environment, printing what model:pull prints. */
export function resolveHubModelsFromEnv(spec: string, options: ResolveHubModelsFromEnvOptions): Promise<string> {
  const endpoint = options.env['HF_ENDPOINT'] ?? 'https://huggingface.co';
  const token = options.env['HF_TOKEN'];
  const stream = options.progress;
  return resolveHubModels(spec, {
    root: options.root,
    cacheDir: modelCacheDir(options.env),
    endpoint,
    ...(token === undefined ? {} : { token }),
    onStart: (ref, folder) => stream.write(`pulling ${ref.repo}@${ref.revision} (${ref.variant}) from ${endpoint} into ${folder}\n`),
    onProgress: progressPrinter(stream),
    onFile: fileDonePrinter(stream),
  });
}
