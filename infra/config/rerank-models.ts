import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadServiceConfig, type ModelConfig } from '../../shared/config/service-config.js';
import { HUB_PREFIX, resolveHubModelsFromEnv, type ProgressStream } from '../../shared/scoring/model-pull/index.js';

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** What the scoring functions serve: the same models, in the same order, as `RERANK_MODELS` gives `npm start`. */
export interface DeployModels {
  /** Parsed spec, folders resolved to absolute paths on this machine; the first entry is the default model. */
  readonly models: readonly ModelConfig[];
  readonly defaultId: string;
}

/** A model folder copied into the function bundle, and where it lands (relative to the code root). */
export interface BundledFolder {
  readonly id: string;
  readonly source: string;
  readonly target: string;
}

export class DeployModelsError extends Error {
  override readonly name = 'DeployModelsError';
}

const asText = (raw: unknown): string | undefined => (raw === undefined || raw === null ? undefined : String(raw).trim());

/**
 * `rerank:models` takes the RERANK_MODELS syntax (`id=folder`, `id=lexical`, `id=hybrid:a+b`, comma-separated,
 * the first being the default); unset or empty, it is the service's own default list, so a plain `cdk deploy`
 * serves exactly what `npm start` serves.
 * Older contexts still work: `rerank:modelFolder` (+ `rerank:modelId`) deploys that one folder, and
 * `rerank:modelId` alone picks the default among the listed models - an id the spec does not list is an error,
 * never a folder copied under that name.
 */
export function readDeployModels(tryGetContext: (key: string) => unknown, projectRoot: string = PROJECT_ROOT): DeployModels {
  const spec = asText(tryGetContext('rerank:models')) ?? '';
  const legacyFolder = asText(tryGetContext('rerank:modelFolder')) ?? '';
  const legacyId = asText(tryGetContext('rerank:modelId')) ?? '';
  if (spec !== '' && legacyFolder !== '') throw new DeployModelsError('set rerank:models or rerank:modelFolder, not both');
  const effective = legacyFolder !== '' ? `${legacyId || path.basename(legacyFolder)}=${legacyFolder}` : spec;
  let models: ModelConfig[];
  try {
    models = [...loadServiceConfig({ RERANK_MODELS: effective, RERANK_CODE_ROOT: projectRoot }).models];
  } catch (error) {
    if (error instanceof ConfigError) throw new DeployModelsError(`rerank:models: ${error.message}`);
    throw error;
  }
  if (legacyId !== '' && legacyFolder === '') {
    const chosen = models.find((m) => m.id === legacyId);
    if (chosen === undefined) {
      throw new DeployModelsError(
        `rerank:modelId '${legacyId}' is not one of the served models (${models.map((m) => m.id).join(', ')}); list it in rerank:models`,
      );
    }
    models = [chosen, ...models.filter((m) => m !== chosen)];
  }
  return { models, defaultId: models[0]!.id };
}

/** The folders a bundle carries: each folder model under models/<id>. */
export function bundledFolders(deploy: DeployModels): BundledFolder[] {
  return deploy.models.flatMap((m) => (m.kind === 'folder' ? [{ id: m.id, source: m.folder, target: `models/${m.id}` }] : []));
}

/** RERANK_MODELS for the functions: the same list and order, folders pointing into the bundle. */
export function bundledModelsSpec(deploy: DeployModels): string {
  return deploy.models
    .map((m) => {
      if (m.kind === 'folder') return `${m.id}=models/${m.id}`;
      if (m.kind === 'lexical') return `${m.id}=lexical`;
      return `${m.id}=hybrid:${m.model}+${m.lexical}`;
    })
    .join(',');
}

export interface ResolveDeployHubOptions {
  readonly projectRoot?: string;
  /** RERANK_MODEL_CACHE / XDG_CACHE_HOME / HOME for the cache; HF_ENDPOINT / HF_TOKEN for the pull. Default process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where model:pull's progress lines go (default process.stderr). */
  readonly progress?: ProgressStream;
}

/**
 * Before the (synchronous) settings are read: Hub repo ids in `rerank:models` (`id=hf:owner/name[@revision][:variant]`,
 * or a bare `owner/name` that is no folder under the project root) are pulled into the model cache unless already
 * complete there, and the returned context lists their cached folders instead, so readDeployModels and the
 * bundler see plain folders. The legacy `rerank:modelFolder` may name a repo the same way.
 */
export async function resolveDeployHubModels(
  tryGetContext: (key: string) => unknown,
  options: ResolveDeployHubOptions = {},
): Promise<(key: string) => unknown> {
  const projectRoot = options.projectRoot ?? PROJECT_ROOT;
  const resolve = (spec: string): Promise<string> =>
    resolveHubModelsFromEnv(spec, { root: projectRoot, env: options.env ?? process.env, progress: options.progress ?? process.stderr });
  const spec = asText(tryGetContext('rerank:models')) ?? '';
  const legacyFolder = asText(tryGetContext('rerank:modelFolder')) ?? '';
  const legacyId = asText(tryGetContext('rerank:modelId')) ?? '';
  try {
    if (spec !== '' && legacyFolder === '') {
      const resolved = await resolve(spec);
      return (key) => (key === 'rerank:models' ? resolved : tryGetContext(key));
    }
    if (legacyFolder !== '' && spec === '' && !existsSync(path.resolve(projectRoot, legacyFolder))) {
      // The legacy folder as a one-entry spec, named after the repo rather than after the cache folder.
      const repoName = (legacyFolder.startsWith(HUB_PREFIX) ? legacyFolder.slice(HUB_PREFIX.length) : legacyFolder)
        .split(/[@:]/)[0]!
        .split('/')
        .pop()!;
      const resolved = await resolve(`${legacyId || repoName}=${legacyFolder}`);
      const overrides: Record<string, unknown> = { 'rerank:models': resolved, 'rerank:modelFolder': '', 'rerank:modelId': '' };
      return (key) => (key in overrides ? overrides[key] : tryGetContext(key));
    }
  } catch (error) {
    if (error instanceof ConfigError) throw new DeployModelsError(`rerank:models: ${error.message}`);
    throw error;
  }
  return tryGetContext;
}
