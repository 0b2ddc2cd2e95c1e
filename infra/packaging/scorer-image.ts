import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';
import type { BundledFolder } from '../config/rerank-models.js';
import { LAMBDA_IMAGE_LIMIT_BYTES, ScorerBundleError, scorerBundleCommands, type LambdaArchitectureName } from './scorer-bundle.js';
import { scorerEsbuildOptions } from './scorer-esbuild.js';

/** The Dockerfile of the scoring image, relative to the project root; staged as `Dockerfile` beside the bundles. */
export const SCORER_DOCKERFILE = 'container/Dockerfile';

/** Where an entry's bundle sits in the image: its source path with `.mjs` (`functions/api/handler.ts` -> `functions/api/handler.mjs`). */
export function imageModule(entry: string): string {
  if (!/^functions\/[\w/-]+\.ts$/.test(entry)) throw new ScorerBundleError(`scoring entry ${entry} is not a functions/**/*.ts file`);
  return entry.replace(/\.ts$/, '.mjs');
}

/** The Lambda handler string that runs an entry in the image (the module path without extension, then the export). */
export function imageHandler(entry: string): string {
  return `${imageModule(entry).replace(/\.mjs$/, '')}.handler`;
}

export interface ScorerImageStaging {
  /** An empty or absent folder; what was there is removed. */
  readonly stagingDir: string;
  readonly projectRoot: string;
  /** Entry files relative to the project root: one image serves every scoring function, each with its own CMD. */
  readonly entries: readonly string[];
  readonly architecture: LambdaArchitectureName;
  readonly folders: readonly BundledFolder[];
  /**
   * false = only the Dockerfile and empty folders (CDK skips bundling for this stack, e.g. `cdk deploy OtherStack` or
   * template-only tests): the template is the same, the image asset just is not buildable.
   */
  readonly bundle: boolean;
}

/**
 * The docker build context of the scoring image, made at synth without Docker: what the zips hold - each entry's
 * esbuild bundle (the NodejsFunction's options), onnxruntime-node pruned to linux/<arch>, the docs page files and
 * models/<id> (hard links where possible) - plus the Dockerfile. The three scoring functions share it, so a 1 GB
 * model is copied into the assembly, built and pushed once, not three times.
 */
export function stageScorerImage(options: ScorerImageStaging): void {
  const out = options.stagingDir;
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  copyFileSync(path.join(options.projectRoot, SCORER_DOCKERFILE), path.join(out, 'Dockerfile'));
  // The Dockerfile copies these folders: present even when nothing is bundled or every served model is lexical.
  for (const dir of ['models', 'node_modules', 'functions']) mkdirSync(path.join(out, dir));
  if (!options.bundle) return;
  for (const entry of options.entries) {
    buildSync({
      ...scorerEsbuildOptions(path.join(options.projectRoot, entry), path.join(out, imageModule(entry))),
      absWorkingDir: options.projectRoot,
    });
  }
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
      throw new ScorerBundleError(`staging the scoring image failed: ${stderr || (error as Error).message}`);
    }
  }
}
