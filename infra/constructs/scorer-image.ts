import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Stack, Stage, type CfnResource } from 'aws-cdk-lib';
import { DockerImageAsset, Platform } from 'aws-cdk-lib/aws-ecr-assets';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { bundledFolders, type DeployModels } from '../config/rerank-models.js';
import type { LambdaArchitectureName } from '../packaging/scorer-bundle.js';
import { imageHandler, stageScorerImage } from '../packaging/scorer-image.js';

export interface ScorerImageProps {
  readonly projectRoot: string;
  readonly architecture: LambdaArchitectureName;
  readonly models: DeployModels;
  /** Every scoring entry the image serves (relative to the project root). */
  readonly entries: readonly string[];
}

/**
 * One container image for every scoring function (container/Dockerfile): their bundles differ by a few hundred KB,
 * the model and runtime they share are most of the bytes. Synth stages the build context and runs no Docker;
 * `cdk deploy` builds the image for the functions' architecture and pushes it to the bootstrap ECR repository.
 */
export class ScorerImage extends Construct {
  readonly asset: DockerImageAsset;
  readonly #entries: readonly string[];

  constructor(scope: Construct, id: string, props: ScorerImageProps) {
    super(scope, id);
    this.#entries = props.entries;
    // Staged inside the cloud assembly, as CDK stages its own bundles; the asset copies it to asset.<hash> at once,
    // and the models in it are hard links, so their bytes are written once.
    const outdir = Stage.of(this)?.outdir ?? mkdtempSync(path.join(tmpdir(), 'rerank-image-'));
    const stagingDir = path.join(outdir, `rerank-image-staging.${this.node.addr}`);
    try {
      stageScorerImage({
        stagingDir,
        projectRoot: props.projectRoot,
        entries: props.entries,
        architecture: props.architecture,
        folders: bundledFolders(props.models),
        bundle: Stack.of(this).bundlingRequired,
      });
      this.asset = new DockerImageAsset(this, 'Image', {
        directory: stagingDir,
        platform: props.architecture === 'arm64' ? Platform.LINUX_ARM64 : Platform.LINUX_AMD64,
      });
    } finally {
      rmSync(stagingDir, { recursive: true, force: true });
    }
  }

  /** The image with the entry's handler as its command (ImageConfig.Command). */
  code(entry: string): lambda.DockerImageCode {
    if (!this.#entries.includes(entry)) throw new Error(`the scoring image has no bundle for ${entry}`);
    return lambda.DockerImageCode.fromEcr(this.asset.repository, { tagOrDigest: this.asset.imageTag, cmd: [imageHandler(entry)] });
  }

  /** Records the image asset on a function, as fromImageAsset does (aws:asset:* metadata: SAM CLI local invokes). */
  describe(fn: lambda.Function): void {
    this.asset.addResourceMetadata(fn.node.defaultChild as CfnResource, 'Code.ImageUri');
  }
}
