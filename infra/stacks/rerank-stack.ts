import { CfnOutput, Duration, RemovalPolicy, Stack, Tags, type StackProps } from 'aws-cdk-lib';
import * as codedeploy from 'aws-cdk-lib/aws-codedeploy';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { ALARM_EMAIL_OPT_OUT, type DeploymentPreference, type RerankSettings } from '../config/rerank-settings.js';
import { EdgeAuthorizer } from '../constructs/edge-authorizer.js';
import { acknowledge, NAG_ACKNOWLEDGEMENTS as ACK } from '../nag/acknowledge-nag-findings.js';
import { BatchTaskQueues } from '../constructs/batch-task-queues.js';
import { ChunkQueues } from '../constructs/chunk-queues.js';
import { FilesBucket } from '../constructs/files-bucket.js';
import { JobsTable, TABLE_ACCESS } from '../constructs/jobs-table.js';
import { RerankHttpApi } from '../constructs/rerank-http-api.js';
import { RerankMonitoring } from '../constructs/rerank-monitoring.js';
import type { ScorerFunction } from '../constructs/scorer-function.js';
import type { PackagingChoice } from '../packaging/scorer-packaging.js';
import { buildApiRoutes } from '../../shared/http/api-routes.js';
import { createFunctions, DEAD_LETTER_TIMEOUT, functionEnvironment, METRICS_NAMESPACE, SERVICE_NAME } from './rerank-functions.js';
import { attachBatchWorker, attachChunkWorkers, grantAccess, type RerankResources } from './rerank-wiring.js';

export interface RerankStackProps extends StackProps {
  readonly settings: RerankSettings;
  /** The checkout's root: entries, package-lock.json, node_modules and the model folder are found from it. */
  readonly projectRoot: string;
}

/**
 * The rerank service on AWS: HTTP API -> API function (sync scoring, job submit/poll) -> chunk queue ->
 * worker function -> jobs table; chunks that keep failing go to the DLQ, whose consumer fails their jobs.
 */
export class RerankStack extends Stack {
  readonly api: RerankHttpApi;
  readonly apiFunction: ScorerFunction;
  readonly workerFunction: ScorerFunction;
  readonly deadLetterFunction: ScorerFunction;
  readonly jobsTable: JobsTable;
  readonly chunkQueues: ChunkQueues;
  readonly files: FilesBucket;
  readonly batchTasks: BatchTaskQueues;
  /** Plan, chunk and finalize tasks of batches and the expiry schedule. */
  readonly batchWorkerFunction: ScorerFunction;
  /** The batch tasks that failed every delivery. */
  readonly batchDeadLetterFunction: ScorerFunction;
  readonly monitoring: RerankMonitoring;
  /** The versions the API and the worker serve from: CodeDeploy shifts these aliases to a new version. */
  readonly apiAlias: lambda.Alias;
  readonly workerAlias: lambda.Alias;
  readonly edgeAuthorizer: EdgeAuthorizer | undefined;
  /** Zip or container image for the scoring functions (rerank:packaging), and why. */
  readonly packaging: PackagingChoice;

  constructor(scope: Construct, id: string, props: RerankStackProps) {
    super(scope, id, props);
    const s = props.settings;
    // Every taggable resource, so cost reports and IAM conditions can tell projects and stages apart.
    // Dashboards are left out: their Tags property is newer than the cfn-lint release the tests pin (E3002), and a
    // dashboard is named after the stack, which says as much.
    const tagged = { excludeResourceTypes: ['AWS::CloudWatch::Dashboard'] };
    Tags.of(this).add('project', 'rerank', tagged);
    Tags.of(this).add('stage', s.stage, tagged);
    const resources = this.#resources(s);
    this.jobsTable = resources.jobsTable;
    this.chunkQueues = resources.chunkQueues;
    this.files = resources.files;
    this.batchTasks = resources.batchTasks;
    const environment = functionEnvironment(s, [this.chunkQueues.environment, this.files.environment, this.batchTasks.environment]);
    const functions = createFunctions(this, s, props.projectRoot, environment);
    this.packaging = functions.packaging;
    this.apiFunction = functions.apiFunction;
    this.workerFunction = functions.workerFunction;
    this.deadLetterFunction = functions.deadLetterFunction;
    this.batchWorkerFunction = functions.batchWorkerFunction;
    this.batchDeadLetterFunction = functions.batchDeadLetterFunction;
    this.apiAlias = new lambda.Alias(this, 'ApiAlias', {
      aliasName: LIVE_ALIAS,
      version: this.apiFunction.function.currentVersion,
      ...(s.apiProvisionedConcurrency > 0 ? { provisionedConcurrentExecutions: s.apiProvisionedConcurrency } : {}),
    });
    this.workerAlias = new lambda.Alias(this, 'WorkerAlias', {
      aliasName: LIVE_ALIAS,
      version: this.workerFunction.function.currentVersion,
    });
    grantAccess(resources, functions);
    attachBatchWorker(this, s, resources, functions);
    attachChunkWorkers(s, resources, functions, this.workerAlias);
    this.edgeAuthorizer = this.#edgeAuthorizer(s, props.projectRoot);
    this.api = new RerankHttpApi(this, 'Http', {
      apiName: s.apiName,
      routes: buildApiRoutes({ weaviate: s.weaviatePrefix }),
      handler: this.apiAlias,
      ...(this.edgeAuthorizer
        ? { authorizer: this.edgeAuthorizer.authorizer, keyHeaderAuthorizer: this.edgeAuthorizer.keyHeaderAuthorizer }
        : {}),
      throttleRateLimit: s.throttleRateLimit,
      throttleBurstLimit: s.throttleBurstLimit,
      logRetentionDays: s.logRetentionDays,
    });
    this.monitoring = this.#monitoring(s);
    // New versions reach traffic through CodeDeploy, and the alarms above roll them back.
    const deploymentConfig = DEPLOYMENT_CONFIGS[s.deploymentPreference];
    this.#deployment(this.apiAlias, 'ApiDeployment', deploymentConfig, this.monitoring.apiRollbackAlarms);
    this.#deployment(this.workerAlias, 'WorkerDeployment', deploymentConfig, this.monitoring.workerRollbackAlarms);
    this.#acknowledgeNagFindings(s.pointInTimeRecovery);
    this.#outputs();
  }

  /** The jobs table, the chunk queues, the files bucket and the batch task queues. */
  #resources(s: RerankSettings): RerankResources {
    const jobsTable = new JobsTable(this, 'Jobs', {
      pointInTimeRecovery: s.pointInTimeRecovery,
      // The table holds the API keys (hashed) as well as the jobs: deleting the stack must not delete them.
      removalPolicy: s.retainTable ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      // A retained table must also survive a console or CLI delete: it holds every client's key.
      deletionProtection: s.retainTable,
    });
    const chunkQueues = new ChunkQueues(this, 'Chunks', {
      workerTimeout: Duration.seconds(s.workerTimeoutSeconds),
      deadLetterConsumerTimeout: DEAD_LETTER_TIMEOUT,
      maxReceiveCount: s.maxReceiveCount,
      jobTtlSeconds: s.jobTtlSeconds,
    });
    // Files, uploads and batch outputs: private, TLS-only, expired after the documented retention.
    const files = new FilesBucket(this, 'Files', {
      retentionDays: s.fileRetentionDays,
      removalPolicy: s.retainTable ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    const batchWorkerTimeout = Duration.seconds(s.batchWorkerTimeoutSeconds);
    const batchTasks = new BatchTaskQueues(this, 'BatchTasks', {
      workerTimeout: batchWorkerTimeout,
      deadLetterConsumerTimeout: batchWorkerTimeout,
      maxReceiveCount: s.maxReceiveCount,
      // A batch's tasks are useless after its 24 h completion window.
      jobTtlSeconds: 86_400,
    });
    return { jobsTable, chunkQueues, files, batchTasks };
  }

  #edgeAuthorizer(s: RerankSettings, projectRoot: string): EdgeAuthorizer | undefined {
    if (!s.edgeAuthorizer) return undefined;
    const authorizer = new EdgeAuthorizer(this, 'EdgeAuth', {
      projectRoot,
      architecture: s.architecture,
      logRetentionDays: s.logRetentionDays,
      cacheSeconds: s.authorizerCacheSeconds,
      reservedConcurrency: s.authorizerReservedConcurrency,
    });
    this.jobsTable.grantAccess(authorizer.function, TABLE_ACCESS.authorizer);
    return authorizer;
  }

  #monitoring(s: RerankSettings): RerankMonitoring {
    return new RerankMonitoring(this, 'Monitoring', {
      dashboardName: `${this.stackName}-rerank`,
      httpApi: this.api.httpApi,
      functions: {
        Api: this.apiFunction.function,
        Worker: this.workerFunction.function,
        DeadLetter: this.deadLetterFunction.function,
        BatchWorker: this.batchWorkerFunction.function,
        BatchDeadLetter: this.batchDeadLetterFunction.function,
        ...(this.edgeAuthorizer ? { Authorizer: this.edgeAuthorizer.function } : {}),
      },
      chunkQueue: this.chunkQueues.queue,
      deadLetterQueue: this.chunkQueues.deadLetterQueue,
      batchDeadLetterQueue: this.batchTasks.deadLetterQueue,
      table: this.jobsTable.table,
      ...(s.alarmEmail === ALARM_EMAIL_OPT_OUT ? {} : { alarmEmail: s.alarmEmail }),
      // A dialect request may wait jobWaitMs for its job: alarm when the slowest 1% get close to the timeout.
      apiLatencyP99ThresholdMs: Math.min(s.jobWaitMs + 2000, s.apiTimeoutSeconds * 1000 - 1000),
      // Three worker timeouts: a chunk has missed more than one chance at a worker.
      oldestChunkAgeThresholdSeconds: Math.max(300, 3 * s.workerTimeoutSeconds),
      metricsNamespace: METRICS_NAMESPACE,
      serviceName: SERVICE_NAME,
    });
  }

  #outputs(): void {
    new CfnOutput(this, 'ApiUrl', { value: this.api.url, description: 'Base URL; OpenAI-style clients use <ApiUrl>v1' });
    new CfnOutput(this, 'ApiFunctionName', { value: this.apiFunction.function.functionName });
    new CfnOutput(this, 'JobsTableName', {
      value: this.jobsTable.table.tableName,
      description: 'Jobs and API keys: npm run keys -- --table <JobsTableName> create --name <name>',
    });
    new CfnOutput(this, 'ChunkQueueName', { value: this.chunkQueues.queue.queueName });
    new CfnOutput(this, 'ChunkDeadLetterQueueName', { value: this.chunkQueues.deadLetterQueue.queueName });
    new CfnOutput(this, 'FilesBucketName', { value: this.files.bucket.bucketName });
    new CfnOutput(this, 'BatchTaskQueueName', { value: this.batchTasks.queue.queueName });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.monitoring.alarmTopic.topicArn });
    new CfnOutput(this, 'DashboardName', { value: `${this.stackName}-rerank` });
  }

  /** cdk-nag findings accepted on purpose, each on the constructs it concerns (infra/nag/acknowledge-nag-findings.ts). */
  #acknowledgeNagFindings(pointInTimeRecovery: boolean): void {
    const functions = [
      this.apiFunction,
      this.workerFunction,
      this.deadLetterFunction,
      this.batchWorkerFunction,
      this.batchDeadLetterFunction,
      ...(this.edgeAuthorizer ? [this.edgeAuthorizer] : []),
    ];
    for (const fn of functions) acknowledge(fn, ACK.xrayWildcard, ACK.noAsyncInvocations);
    acknowledge(this.deadLetterFunction, ACK.sqsEventSourceFailures);
    acknowledge(this.workerAlias, ACK.sqsEventSourceFailures);
    acknowledge(this.chunkQueues.deadLetterQueue, ACK.dlqHasNoRedrive);
    acknowledge(this.batchTasks.deadLetterQueue, ACK.dlqHasNoRedrive);
    acknowledge(this.batchWorkerFunction, ACK.sqsEventSourceFailures);
    acknowledge(this.batchDeadLetterFunction, ACK.sqsEventSourceFailures);
    for (const route of this.api.publicRoutes) acknowledge(route, ACK.publicRoutes);
    if (!this.edgeAuthorizer) acknowledge(this.api, ACK.functionAuthenticates);
    acknowledge(this.monitoring.alarmTopic, ACK.alarmMailHasNoRedrive);
    if (!pointInTimeRecovery) acknowledge(this.jobsTable, ACK.throwawayTable);
    for (const id of ['ApiDeployment', 'WorkerDeployment']) acknowledge(this.node.findChild(id), ACK.codeDeployRole);
  }

  #deployment(alias: lambda.Alias, id: string, deploymentConfig: codedeploy.ILambdaDeploymentConfig, alarms: cloudwatch.IAlarm[]): void {
    new codedeploy.LambdaDeploymentGroup(this, id, {
      alias,
      deploymentConfig,
      alarms,
      autoRollback: { failedDeployment: true, stoppedDeployment: true, deploymentInAlarm: true },
    });
  }
}

const LIVE_ALIAS = 'live';

const DEPLOYMENT_CONFIGS: Record<DeploymentPreference, codedeploy.ILambdaDeploymentConfig> = {
  AllAtOnce: codedeploy.LambdaDeploymentConfig.ALL_AT_ONCE,
  Canary10Percent5Minutes: codedeploy.LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES,
  Canary10Percent15Minutes: codedeploy.LambdaDeploymentConfig.CANARY_10PERCENT_15MINUTES,
  Linear10PercentEvery1Minute: codedeploy.LambdaDeploymentConfig.LINEAR_10PERCENT_EVERY_1MINUTE,
  Linear10PercentEvery3Minutes: codedeploy.LambdaDeploymentConfig.LINEAR_10PERCENT_EVERY_3MINUTES,
};
