import { rmSync } from 'node:fs';
import path from 'node:path';
import { Duration, RemovalPolicy, Stack, Stage } from 'aws-cdk-lib';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { threadsForMemory } from '../config/rerank-settings.js';
import { bundledFolders, bundledModelsSpec, type DeployModels } from '../config/rerank-models.js';
import { scorerBundleCommands, type LambdaArchitectureName } from '../packaging/scorer-bundle.js';
import { SCORER_ESBUILD, SCORER_RUNTIME } from '../packaging/scorer-esbuild.js';
import { stageScorerImage } from '../packaging/scorer-image.js';
import type { ScorerPackaging } from '../packaging/scorer-packaging.js';

export interface ScorerFunctionProps {
  /** Entry file relative to the project root, e.g. `functions/api/handler.ts` (the same file the local server runs). */
  readonly entry: string;
  readonly description: string;
  readonly projectRoot: string;
  readonly architecture: LambdaArchitectureName;
  readonly memoryMb: number;
  readonly timeout: Duration;
  /** The models served (RERANK_MODELS), their folders copied into the bundle. */
  readonly models: DeployModels;
  readonly logRetentionDays: number;
  /** Service configuration (RERANK_*) beyond the model and threads, which this construct sets. */
  readonly environment: Readonly<Record<string, string>>;
  /** The most executions this function may run at once, carved out of the account's pool. */
  readonly reservedConcurrency: number;
  /** A zip (default) or a container image with the same contents, for models over the zip's 250 MB. */
  readonly packaging?: ScorerPackaging;
}

/**
 * One scoring Lambda: the entry bundled by esbuild (ESM, Node 24) with onnxruntime-node external and pruned to
 * the one linux/<arch> binary, the model folder copied beside it, ONNX threads following the memory's vCPUs,
 * its own log group with retention, and a role that can write only to that log group until grants are added.
 * Packaged as a zip, or as a container image of the same folder (container/Dockerfile) when the models are too big.
 */
export class ScorerFunction extends Construct {
  /** A NodejsFunction (zip) or a DockerImageFunction (image): both are lambda.Function. */
  readonly function: lambda.Function;
  readonly logGroup: logs.LogGroup;
  readonly role: iam.Role;
  readonly threads: number;
  readonly packaging: ScorerPackaging;

  constructor(scope: Construct, id: string, props: ScorerFunctionProps) {
    super(scope, id);
    this.threads = threadsForMemory(props.memoryMb);
    this.packaging = props.packaging ?? 'zip';
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetentionDays as logs.RetentionDays,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // No AWSLambdaBasicExecutionRole: its logs statement is on "*"; this role may write only its own log group.
    this.role = new iam.Role(this, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    this.logGroup.grantWrite(this.role);

    // Everything but the code is the same for both packagings.
    const common = {
      description: props.description,
      reservedConcurrentExecutions: props.reservedConcurrency,
      // X-Ray active tracing: Powertools Tracer (shared/observability/tracer.ts) adds the subsegments.
      tracing: lambda.Tracing.ACTIVE,
      architecture: props.architecture === 'arm64' ? lambda.Architecture.ARM_64 : lambda.Architecture.X86_64,
      memorySize: props.memoryMb,
      timeout: props.timeout,
      role: this.role,
      logGroup: this.logGroup,
      environment: {
        ...props.environment,
        RERANK_MODELS: bundledModelsSpec(props.models),
        RERANK_THREADS: String(this.threads),
        NODE_OPTIONS: '--enable-source-maps',
      },
    };
    this.function = this.packaging === 'image' ? this.imageFunction(props, common) : this.zipFunction(props, common);
  }

  private zipFunction(props: ScorerFunctionProps, common: lambda.FunctionOptions): lambda.Function {
    const projectRoot = props.projectRoot;
    return new NodejsFunction(this, 'Function', {
      ...common,
      entry: path.join(projectRoot, props.entry),
      handler: 'handler',
      // Node 22 reaches end of life in April 2027; 24 is the newest Lambda Node runtime aws-cdk-lib 2.276 knows.
      runtime: SCORER_RUNTIME,
      projectRoot,
      depsLockFilePath: path.join(projectRoot, 'package-lock.json'),
      bundling: {
        format: OutputFormat.ESM,
        target: SCORER_ESBUILD.target,
        mainFields: [...SCORER_ESBUILD.mainFields],
        banner: SCORER_ESBUILD.banner,
        minify: SCORER_ESBUILD.minify,
        sourceMap: SCORER_ESBUILD.sourceMap,
        sourcesContent: SCORER_ESBUILD.sourcesContent,
        externalModules: [...SCORER_ESBUILD.externalModules],
        forceDockerBundling: false,
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          afterBundling: (_inputDir: string, outputDir: string) =>
            scorerBundleCommands({
              outputDir,
              projectRoot,
              architecture: props.architecture,
              folders: bundledFolders(props.models),
            }),
        },
      },
    });
  }

  /**
   * The image's build context is staged inside the cloud assembly (as CDK stages its own bundles), copied by the
   * image asset into asset.<hash>, then removed: models are hard-linked into it, so their bytes are written once.
   * Synth runs no Docker: `cdk deploy` builds the image for the function's architecture and pushes it to ECR.
   */
  private imageFunction(props: ScorerFunctionProps, common: lambda.FunctionOptions): lambda.Function {
    const stagingDir = path.join(Stage.of(this)?.outdir ?? props.projectRoot, `rerank-image-staging.${this.node.addr}`);
    stageScorerImage({
      stagingDir,
      projectRoot: props.projectRoot,
      entry: props.entry,
      architecture: props.architecture,
      folders: bundledFolders(props.models),
      bundle: Stack.of(this).bundlingRequired,
    });
    try {
      return new lambda.DockerImageFunction(this, 'Function', {
        ...common,
        code: lambda.DockerImageCode.fromImageAsset(stagingDir, {
          platform: props.architecture === 'arm64' ? Platform.LINUX_ARM64 : Platform.LINUX_AMD64,
        }),
      });
    } finally {
      rmSync(stagingDir, { recursive: true, force: true });
    }
  }
}
