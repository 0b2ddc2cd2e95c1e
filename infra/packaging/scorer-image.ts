import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';
import type { BundledFolder } from '../config/rerank-models.js';
import { LAMBDA_IMAGE_LIMIT_BYTES, ScorerBundleError, scorerBundleCommands, type LambdaArchitectureName } from './scorer-bundle.js';
import { scorerEsbuildOptions } from './scorer-esbuild.js';

/** The Dockerfile of every scoring image, relative to the project root; staged as `Dockerfile` beside the bundle. */
export const SCORER_DOCKERFILE = 'container/Dockerfile';

export interface ScorerImageStaging {
  /** An empty or absent folder; what was there is removed. */
  readonly stagingDir: string;
  readonly projectRoot: string;
  /** Entry file relative to the project root. */
  readonly entry: string;
  readonly architecture: LambdaArchitectureName;
  readonly folders: readonly BundledFolder[];
  /**
   * false = only the Dockerfile (CDK skips bundling for this stack, e.g. `cdk deploy OtherStack` or template-only
   * tests): the template is the same, the image asset just is not buildable.
   */
  readonly bundle: boolean;
}

/**
 * The docker build context of a scoring image, made at synth without Docker: the zip's exact contents - esbuild's
 * index.mjs (same options as the NodejsFunction), onnxruntime-node pruned to linux/<arch>, the docs page files and
 * models/<id> (hard links where possible) - plus the Dockerfile. CDK copies this folder into the cloud assembly as the
 * image asset; `cdk deploy` / `cdk-assets publish` runs `docker build` on it and pushes to the bootstrap ECR repository.
 */
export function stageScorerImage(options: ScorerImageStaging): void {
  const out = options.stagingDir;
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  copyFileSync(path.join(options.projectRoot, SCORER_DOCKERFILE), path.join(out, 'Dockerfile'));
  // The Dockerfile copies models/ even when every served model is lexical (no folder): an empty folder copies fine.
  mkdirSync(path.join(out, 'models'));
  if (!options.bundle) return;
  buildSync({ ...scorerEsbuildOptions(path.join(options.projectRoot, options.entry), out), absWorkingDir: options.projectRoot });
  const commands = scorerBundleCommands({
    outputDir: out,
    projectRoot: options.projectRoot,
    architecture: options.architecture,
    folders: options.folders,
    sizeLimitBytes: LAMBDA_IMAGE_LIMIT_BYTES,
    linkModels: true,
  });
  for (const command of commands) {
    try {
      execFileSync('bash', ['-c', command], { cwd: options.projectRoot, stdio: 'pipe' });
    } catch (error) {
      const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
      throw new ScorerBundleError(`staging the ${options.entry} image failed: ${stderr || (error as Error).message}`);
    }
  }
}
