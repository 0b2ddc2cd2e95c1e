import path from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

export interface EdgeAuthorizerProps {
  readonly projectRoot: string;
  readonly architecture: 'arm64' | 'x86_64';
  readonly logRetentionDays: number;
  /** API Gateway's cache of an answer per Authorization header (0 = ask the function every time). */
  readonly cacheSeconds: number;
  readonly reservedConcurrency: number;
}

/** Memory of the authorizer: no model, no ONNX runtime; one GetItem per cache miss. */
const AUTHORIZER_MEMORY_MB = 256;

/**
 * The HTTP API's Lambda REQUEST authorizer (functions/authorizer/handler.ts): every non-public route asks it
 * before the scoring function runs. Identity source `Authorization`: a request without the header gets
 * API Gateway's 401 with no invocation at all; an answer is cached per header value for `cacheSeconds`, so a
 * repeated bad key costs neither an invocation nor a table read. Grants: GetItem on `KEY#*` (added by the stack).
 */
export class EdgeAuthorizer extends Construct {
  readonly function: NodejsFunction;
  readonly authorizer: HttpLambdaAuthorizer;
  /**
   * The same function with no identity source and no cache, for routes where a dialect told apart by its headers may
   * carry its key outside Authorization (Pinecone's `Api-Key` on `/rerank`): with the Authorization identity source,
   * API Gateway would answer such a request 401 without asking. Every request there invokes the authorizer (its
   * per-container key cache spares the table).
   */
  readonly keyHeaderAuthorizer: HttpLambdaAuthorizer;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: EdgeAuthorizerProps) {
    super(scope, id);
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetentionDays as logs.RetentionDays,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const role = new iam.Role(this, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    this.logGroup.grantWrite(role);
    this.function = new NodejsFunction(this, 'Function', {
      entry: path.join(props.projectRoot, 'functions/authorizer/handler.ts'),
      handler: 'handler',
      description: 'Rerank edge authorizer: refuses requests without a live API key before the scoring function',
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: props.architecture === 'arm64' ? lambda.Architecture.ARM_64 : lambda.Architecture.X86_64,
      memorySize: AUTHORIZER_MEMORY_MB,
      timeout: Duration.seconds(5),
      reservedConcurrentExecutions: props.reservedConcurrency,
      tracing: lambda.Tracing.ACTIVE,
      role,
      logGroup: this.logGroup,
      projectRoot: props.projectRoot,
      depsLockFilePath: path.join(props.projectRoot, 'package-lock.json'),
      environment: { POWERTOOLS_SERVICE_NAME: 'rerank-authorizer', POWERTOOLS_LOG_LEVEL: 'INFO', NODE_OPTIONS: '--enable-source-maps' },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node24',
        mainFields: ['module', 'main'],
        banner:
          "import { createRequire as __rerankCreateRequire } from 'node:module'; const require = __rerankCreateRequire(import.meta.url);",
        minify: true,
        sourceMap: true,
        sourcesContent: false,
        forceDockerBundling: false,
        // Bundle the AWS SDK too, as the scoring functions do: the code runs the SDK version the tests ran.
        externalModules: [],
      },
    });
    this.authorizer = new HttpLambdaAuthorizer('ApiKey', this.function, {
      authorizerName: 'api-key',
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      identitySource: ['$request.header.Authorization'],
      resultsCacheTtl: Duration.seconds(props.cacheSeconds),
    });
    this.keyHeaderAuthorizer = new HttpLambdaAuthorizer('AnyKeyHeader', this.function, {
      authorizerName: 'api-key-any-header',
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      identitySource: [],
      resultsCacheTtl: Duration.seconds(0),
    });
  }
}
