export { downloadHubFile, type DownloadedFile, type DownloadProgress } from './download-hub-file.js';
export {
  externalDataFiles,
  fetchRepoInfo,
  MODEL_VARIANTS,
  noOnnxExportHint,
  ONNX_VARIANT_FILES,
  selectModelFiles,
  type HubRepoInfo,
  type HubSibling,
  type ModelVariant,
} from './hub-repo-files.js';
export {
  ChecksumMismatchError,
  InterruptedDownloadError,
  MissingModelFileError,
  ModelPullError,
  RepoNotFoundError,
} from './model-pull-error.js';
export { selectPytorchFiles } from './pytorch-files.js';
export { UnsafeHubPathError } from './safe-hub-paths.js';
export { CHECKSUMS_FILE, PROVENANCE_FILE, pullModel, type PulledModel, type PullModelOptions } from './pull-model.js';
export {
  cachedModelFolder,
  ensureCachedModel,
  isCompletePull,
  modelCacheDir,
  type CachedModel,
  type EnsureCachedModelOptions,
  type HubModelRef,
} from './model-cache.js';
export { fileDonePrinter, progressPrinter, type ProgressStream } from './pull-progress.js';
export {
  HUB_PREFIX,
  resolveHubModels,
  resolveHubModelsFromEnv,
  SERVABLE_VARIANTS,
  type ResolveHubModelsFromEnvOptions,
  type ResolveHubModelsOptions,
} from './hub-model-spec.js';
