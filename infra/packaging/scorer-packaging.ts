import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { BundledFolder } from '../config/rerank-models.js';
import { DOCS_PACKAGE_FILES } from '../../shared/http/api-docs-page.js';
import { LAMBDA_UNZIPPED_LIMIT_BYTES, locateOnnxRuntime, ScorerBundleError, type LambdaArchitectureName } from './scorer-bundle.js';

/** `rerank:packaging`: how the scoring functions' code reaches Lambda. */
export const PACKAGING_MODES = ['auto', 'zip', 'image'] as const;
export type PackagingMode = (typeof PACKAGING_MODES)[number];
/** What a deployment actually builds. */
export type ScorerPackaging = Exclude<PackagingMode, 'auto'>;

const MB = 1024 * 1024;

/**
 * Room left for what the estimate does not count: the esbuild output (index.mjs + its source map, ~8 MB today) and
 * its growth. `auto` picks the image once the counted bytes reach the limit minus this, so a model that would fit by
 * a few MB does not fail the zip's size guard after esbuild adds the code.
 */
export const AUTO_HEADROOM_BYTES = 25 * MB;

export interface PackagingChoice {
  readonly packaging: ScorerPackaging;
  /** Bytes counted: model folders + the pruned ONNX runtime + the docs page files (not the esbuild output). */
  readonly estimatedBytes: number;
  /** One sentence for the synth output: what was chosen and why. */
  readonly reason: string;
}

/** Apparent size of every file under dir: a sparse file counts at its length, as it would once unpacked on Lambda. */
function treeBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    // statSync follows symlinks, as `cp -R` of a folder's contents copies what they point to.
    const stats = statSync(file);
    total += stats.isDirectory() ? treeBytes(file) : stats.size;
  }
  return total;
}

/**
 * The unzipped bytes a zip would hold, counted from the sources the bundle copies (scorer-bundle.ts) without
 * building it: synth decides before esbuild runs, and a 1 GB model is stat'ed, not read.
 */
export function estimateUnzippedBytes(options: {
  readonly projectRoot: string;
  readonly architecture: LambdaArchitectureName;
  readonly folders: readonly BundledFolder[];
}): number {
  const ort = locateOnnxRuntime(options.projectRoot, options.architecture);
  const ortBytes =
    ort.binaryDirs.reduce((sum, dir) => sum + treeBytes(path.join(ort.packageDir, dir)), 0) + treeBytes(path.join(ort.packageDir, 'dist'));
  const docsDir = path.dirname(createRequire(path.join(options.projectRoot, 'package.json')).resolve('swagger-ui-dist/package.json'));
  const docsBytes = DOCS_PACKAGE_FILES.reduce((sum, file) => sum + statSync(path.join(docsDir, file)).size, 0);
  const modelBytes = options.folders.reduce((sum, folder) => {
    const source = path.resolve(options.projectRoot, folder.source);
    try {
      return sum + treeBytes(source);
    } catch (error) {
      throw new ScorerBundleError(`model folder ${source} (model ${folder.id}) cannot be read: ${(error as Error).message}`);
    }
  }, 0);
  return ortBytes + docsBytes + modelBytes;
}

/** `zip` and `image` are taken as given (zip keeps the bundle's size guard); `auto` picks by the estimate. */
export function choosePackaging(mode: PackagingMode, estimatedBytes: number): PackagingChoice {
  const size = `${(estimatedBytes / MB).toFixed(0)} MB`;
  const threshold = LAMBDA_UNZIPPED_LIMIT_BYTES - AUTO_HEADROOM_BYTES;
  if (mode === 'zip') return { packaging: 'zip', estimatedBytes, reason: `rerank:packaging=zip: ~${size} of models and runtime in a zip` };
  if (mode === 'image')
    return { packaging: 'image', estimatedBytes, reason: `rerank:packaging=image: ~${size} of models and runtime in a container image` };
  return estimatedBytes >= threshold
    ? {
        packaging: 'image',
        estimatedBytes,
        reason: `rerank:packaging=auto: ~${size} of models and runtime is over the zip's ${threshold / MB} MB (250 MB limit less ${AUTO_HEADROOM_BYTES / MB} MB for the code): container image`,
      }
    : { packaging: 'zip', estimatedBytes, reason: `rerank:packaging=auto: ~${size} of models and runtime fits a zip` };
}
