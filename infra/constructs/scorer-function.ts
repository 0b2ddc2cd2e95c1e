import path from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { threadsForMemory } from '../config/rerank-settings.js';
import { bundledFolders, bundledModelsSpec, type DeployModels } from '../config/rerank-models.js';
import { scorerBundleCommands, type LambdaArchitectureName } from '../packaging/scorer-bundle.js';
import { SCORER_ESBUILD, SCORER_RUNTIME, scorerNodeOptions, SOURCE_MAPS_CONTEXT } from '../packaging/scorer-esbuild.js';
import type { ScorerPackaging } from '../packaging/scorer-packaging.js';
import type { ScorerImage } from './scorer-image.js';

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
  /** Run from this container image (same contents as the zip, for models over its 250 MB); absent = a zip. */
  readonly image?: ScorerImage | undefined;
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
    this.packaging = props.image ? 'image' : 'zip';
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetentionDays as logs.RetentionDays,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // No AWSLambdaBasicExecutionRole: its logs statement is on "*"; this role may write only its own log group.
    this.role = new iam.Role(this, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    this.logGroup.grantWrite(this.role);

    // Everything but the code is the same for both packagings.
    const nodeOptions = scorerNodeOptions(this.node.tryGetContext(SOURCE_MAPS_CONTEXT));
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
        ...(nodeOptions === '' ? {} : { NODE_OPTIONS: nodeOptions }),
      },
    };
    if (props.image) {
      this.function = new lambda.DockerImageFunction(this, 'Function', { ...common, code: props.image.code(props.entry) });
      props.image.describe(this.function);
    } else {
      this.function = this.#zipFunction(props, common);
    }
  }

  #zipFunction(props: ScorerFunctionProps, common: lambda.FunctionOptions): lambda.Function {
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
        esbuildArgs: { '--alias': Object.entries(SCORER_ESBUILD.alias).map(([from, to]) => `${from}=${to}`) },
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
}
