import { Annotations, CfnOutput, Duration, RemovalPolicy, Stack, Tags, type StackProps } from 'aws-cdk-lib';
import * as codedeploy from 'aws-cdk-lib/aws-codedeploy';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type { Construct } from 'constructs';
import { bundledFolders } from '../config/rerank-models.js';
import { ALARM_EMAIL_OPT_OUT, type DeploymentPreference, type RerankSettings } from '../config/rerank-settings.js';
import { EdgeAuthorizer } from '../constructs/edge-authorizer.js';
import { acknowledge, NAG_ACKNOWLEDGEMENTS as ACK } from '../nag/acknowledge-nag-findings.js';
import { BatchTaskQueues } from '../constructs/batch-task-queues.js';
import { ChunkQueues } from '../constructs/chunk-queues.js';
import { FilesBucket } from '../constructs/files-bucket.js';
import { JobsTable, TABLE_ACCESS } from '../constructs/jobs-table.js';
import { RerankHttpApi } from '../constructs/rerank-http-api.js';
import { RerankMonitoring } from '../constructs/rerank-monitoring.js';
import { ScorerFunction } from '../constructs/scorer-function.js';
import { ScorerImage } from '../constructs/scorer-image.js';
import { choosePackaging, estimateUnzippedBytes, type PackagingChoice } from '../packaging/scorer-packaging.js';
import { buildApiRoutes } from '../../shared/http/api-routes.js';

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
  /** Plan, chunk and finalize tasks of batches, their dead letters and the expiry schedule. */
  readonly batchWorkerFunction: ScorerFunction;
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
    const workerTimeout = Duration.seconds(s.workerTimeoutSeconds);
    const deadLetterTimeout = Duration.seconds(30);

    this.jobsTable = new JobsTable(this, 'Jobs', {
      pointInTimeRecovery: s.pointInTimeRecovery,
      // The table holds the API keys (hashed) as well as the jobs: deleting the stack must not delete them.
      removalPolicy: s.retainTable ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      // A retained table must also survive a console or CLI delete: it holds every client's key.
      deletionProtection: s.retainTable,
    });
    this.chunkQueues = new ChunkQueues(this, 'Chunks', {
      workerTimeout,
      deadLetterConsumerTimeout: deadLetterTimeout,
      maxReceiveCount: s.maxReceiveCount,
      jobTtlSeconds: s.jobTtlSeconds,
    });

    // Files, uploads and batch outputs: private, TLS-only, expired after the documented retention.
    this.files = new FilesBucket(this, 'Files', {
      retentionDays: s.fileRetentionDays,
      removalPolicy: s.retainTable ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });

    const batchWorkerTimeout = Duration.seconds(s.batchWorkerTimeoutSeconds);
    this.batchTasks = new BatchTaskQueues(this, 'BatchTasks', {
      workerTimeout: batchWorkerTimeout,
      deadLetterConsumerTimeout: batchWorkerTimeout,
      maxReceiveCount: s.maxReceiveCount,
      // A batch's tasks are useless after its 24 h completion window.
      jobTtlSeconds: 86_400,
    });

    // Every function reads the same validated service config (shared/config/service-config.ts).
    const environment = {
      RERANK_JOBS_BACKEND: 'aws',
      RERANK_SYNC_MAX_DOCUMENTS: String(s.syncMaxDocuments),
      RERANK_DEFAULT_BATCH_SIZE: String(s.defaultBatchSize),
      RERANK_JOB_WAIT_MS: String(s.jobWaitMs),
      // The sync scoring deadline ends 3 s before API Gateway cuts the integration, so the client reads our 504.
      RERANK_SYNC_TIMEOUT_MS: String((s.apiTimeoutSeconds - 3) * 1000),
      RERANK_JOB_TTL_SECONDS: String(s.jobTtlSeconds),
      RERANK_MAX_RECEIVE_COUNT: String(s.maxReceiveCount),
      // Unset = no upstream host allowed, as the service's own default.
      ...(s.upstreamAllowedHosts ? { RERANK_UPSTREAM_ALLOWED_HOSTS: s.upstreamAllowedHosts } : {}),
      // The function matches the routes API Gateway was given at synth (buildApiRoutes below).
      RERANK_WEAVIATE_PREFIX: s.weaviatePrefix,
      POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
      POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
      POWERTOOLS_LOG_LEVEL: 'INFO',
      ...this.chunkQueues.environment,
      ...this.files.environment,
      ...this.batchTasks.environment,
    };
    // One choice for every scoring function: they carry the same models, so they fit a zip or none does.
    this.packaging = choosePackaging(
      s.packaging,
      estimateUnzippedBytes({ projectRoot: props.projectRoot, architecture: s.architecture, folders: bundledFolders(s.deployModels) }),
    );
    Annotations.of(this).addInfo(this.packaging.reason);
    const image =
      this.packaging.packaging === 'image'
        ? new ScorerImage(this, 'ScorerImage', {
            projectRoot: props.projectRoot,
            architecture: s.architecture,
            models: s.deployModels,
            entries: Object.values(ENTRIES),
          })
        : undefined;
    const common = {
      projectRoot: props.projectRoot,
      architecture: s.architecture,
      image,
      models: s.deployModels,
      logRetentionDays: s.logRetentionDays,
      environment,
    };

    this.apiFunction = new ScorerFunction(this, 'Api', {
      ...common,
      entry: ENTRIES.api,
      description: 'Rerank API: every dialect route, synchronous scoring, job submit and poll',
      memoryMb: s.apiMemoryMb,
      timeout: Duration.seconds(s.apiTimeoutSeconds),
      reservedConcurrency: s.apiReservedConcurrency,
      // With RERANK_JOBS_BACKEND=aws the API authenticates every request against the keys in the jobs table
      // (fail closed); these are the limits of keys created without their own. RERANK_API_KEYS is never set here.
      environment: {
        ...environment,
        RERANK_RATE_LIMIT_PER_MINUTE: String(s.rateLimitPerMinute),
        RERANK_MAX_CONCURRENT_JOBS: String(s.maxConcurrentJobs),
      },
    });
    this.workerFunction = new ScorerFunction(this, 'Worker', {
      ...common,
      entry: ENTRIES.worker,
      description: 'Rerank worker: scores queued chunks and records them in the jobs table',
      memoryMb: s.workerMemoryMb,
      timeout: workerTimeout,
      reservedConcurrency: s.workerReservedConcurrency,
    });
    this.deadLetterFunction = new ScorerFunction(this, 'DeadLetter', {
      ...common,
      entry: ENTRIES.deadLetter,
      description: 'Rerank dead-letter consumer: fails the job of every chunk that could not be scored',
      memoryMb: s.deadLetterMemoryMb,
      timeout: deadLetterTimeout,
      // Its event source runs at most 2 at once (SQS's minimum maximum concurrency).
      reservedConcurrency: DEAD_LETTER_CONCURRENCY,
    });
    this.batchWorkerFunction = new ScorerFunction(this, 'BatchWorker', {
      ...common,
      entry: ENTRIES.batchWorker,
      description: 'Rerank batch worker: plans batches, scores their chunks, writes output and error files, expires them',
      memoryMb: s.workerMemoryMb,
      timeout: batchWorkerTimeout,
      // A plan task plans a third of its timeout, then checkpoints and queues the next: no input is too large to plan.
      environment: { ...common.environment, RERANK_BATCH_PLAN_SLICE_SECONDS: String(Math.floor(s.batchWorkerTimeoutSeconds / 3)) },
      // Its task queue's event source plus its DLQ's (SQS's minimum maximum concurrency, 2).
      reservedConcurrency: s.batchWorkerMaxConcurrency + DEAD_LETTER_CONCURRENCY,
    });
    this.apiAlias = new lambda.Alias(this, 'ApiAlias', {
      aliasName: LIVE_ALIAS,
      version: this.apiFunction.function.currentVersion,
      ...(s.apiProvisionedConcurrency > 0 ? { provisionedConcurrentExecutions: s.apiProvisionedConcurrency } : {}),
    });
    this.workerAlias = new lambda.Alias(this, 'WorkerAlias', {
      aliasName: LIVE_ALIAS,
      version: this.workerFunction.function.currentVersion,
    });

    this.jobsTable.grantAccess(this.apiFunction.function, TABLE_ACCESS.api);
    this.jobsTable.grantAccess(this.workerFunction.function, TABLE_ACCESS.worker);
    this.jobsTable.grantAccess(this.deadLetterFunction.function, TABLE_ACCESS.deadLetter);
    this.chunkQueues.grantSendChunks(this.apiFunction.function);
    // The worker whose chunk completes a job's count queues the job's merge task on the same queue (found missing by
    // the IAM check of the emulator job flow: every job would have stopped at its merge on AWS).
    this.chunkQueues.grantSendChunks(this.workerFunction.function);
    // The API takes uploads, creates batches (one plan task each) and serves file content; the batch worker reads
    // inputs and corpora, writes output and error files and queues chunk and finalize tasks.
    this.files.grantFiles(this.apiFunction.function, 'readWrite');
    this.files.grantFiles(this.batchWorkerFunction.function, 'readWrite');
    this.batchTasks.grantSendTasks(this.apiFunction.function);
    this.batchTasks.grantSendTasks(this.batchWorkerFunction.function);
    this.jobsTable.grantAccess(this.batchWorkerFunction.function, TABLE_ACCESS.batchWorker);
    this.batchWorkerFunction.function.addEventSource(
      new SqsEventSource(this.batchTasks.queue, {
        batchSize: 1,
        maxConcurrency: s.batchWorkerMaxConcurrency,
        reportBatchItemFailures: true,
      }),
    );
    this.batchWorkerFunction.function.addEventSource(
      new SqsEventSource(this.batchTasks.deadLetterQueue, {
        batchSize: 10,
        maxConcurrency: DEAD_LETTER_CONCURRENCY,
        reportBatchItemFailures: true,
      }),
    );
    // Batches past their completion window end as expired, keeping what finished; derived objects of gone files go.
    const expirySchedule = new events.Rule(this, 'BatchExpirySchedule', {
      description: 'Expires rerank batches past their completion window and the derived objects of expired or deleted files',
      schedule: events.Schedule.rate(Duration.minutes(5)),
      targets: [new targets.LambdaFunction(this.batchWorkerFunction.function, { retryAttempts: 2 })],
    });
    acknowledge(expirySchedule, ACK.scheduleNeedsNoDlq);

    // The worker consumes through its alias, so a rollout shifts chunks to the new version as it shifts the API.
    this.workerAlias.addEventSource(
      new SqsEventSource(this.chunkQueues.queue, {
        batchSize: s.workerBatchSize,
        maxBatchingWindow: Duration.seconds(s.workerBatchingWindowSeconds),
        maxConcurrency: s.workerMaxConcurrency,
        reportBatchItemFailures: true,
      }),
    );
    this.deadLetterFunction.function.addEventSource(
      new SqsEventSource(this.chunkQueues.deadLetterQueue, {
        batchSize: 10,
        maxConcurrency: DEAD_LETTER_CONCURRENCY,
        reportBatchItemFailures: true,
      }),
    );

    this.edgeAuthorizer = s.edgeAuthorizer
      ? new EdgeAuthorizer(this, 'EdgeAuth', {
          projectRoot: props.projectRoot,
          architecture: s.architecture,
          logRetentionDays: s.logRetentionDays,
          cacheSeconds: s.authorizerCacheSeconds,
          reservedConcurrency: s.authorizerReservedConcurrency,
        })
      : undefined;
    if (this.edgeAuthorizer) this.jobsTable.grantAccess(this.edgeAuthorizer.function, TABLE_ACCESS.authorizer);

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

    this.monitoring = new RerankMonitoring(this, 'Monitoring', {
      dashboardName: `${this.stackName}-rerank`,
      httpApi: this.api.httpApi,
      functions: {
        Api: this.apiFunction.function,
        Worker: this.workerFunction.function,
        DeadLetter: this.deadLetterFunction.function,
        BatchWorker: this.batchWorkerFunction.function,
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

    // New versions reach traffic through CodeDeploy, and the alarms above roll them back.
    const deploymentConfig = DEPLOYMENT_CONFIGS[s.deploymentPreference];
    this.deployment(this.apiAlias, 'ApiDeployment', deploymentConfig, this.monitoring.apiRollbackAlarms);
    this.deployment(this.workerAlias, 'WorkerDeployment', deploymentConfig, this.monitoring.workerRollbackAlarms);
    this.acknowledgeNagFindings(s.pointInTimeRecovery);

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
  private acknowledgeNagFindings(pointInTimeRecovery: boolean): void {
    const functions = [
      this.apiFunction,
      this.workerFunction,
      this.deadLetterFunction,
      this.batchWorkerFunction,
      ...(this.edgeAuthorizer ? [this.edgeAuthorizer] : []),
    ];
    for (const fn of functions) acknowledge(fn, ACK.xrayWildcard, ACK.noAsyncInvocations);
    acknowledge(this.deadLetterFunction, ACK.sqsEventSourceFailures);
    acknowledge(this.workerAlias, ACK.sqsEventSourceFailures);
    acknowledge(this.chunkQueues.deadLetterQueue, ACK.dlqHasNoRedrive);
    acknowledge(this.batchTasks.deadLetterQueue, ACK.dlqHasNoRedrive);
    acknowledge(this.batchWorkerFunction, ACK.sqsEventSourceFailures);
    for (const route of this.api.publicRoutes) acknowledge(route, ACK.publicRoutes);
    if (!this.edgeAuthorizer) acknowledge(this.api, ACK.functionAuthenticates);
    acknowledge(this.monitoring.alarmTopic, ACK.alarmMailHasNoRedrive);
    if (!pointInTimeRecovery) acknowledge(this.jobsTable, ACK.throwawayTable);
    for (const id of ['ApiDeployment', 'WorkerDeployment']) acknowledge(this.node.findChild(id), ACK.codeDeployRole);
  }

  private deployment(
    alias: lambda.Alias,
    id: string,
    deploymentConfig: codedeploy.ILambdaDeploymentConfig,
    alarms: cloudwatch.IAlarm[],
  ): void {
    new codedeploy.LambdaDeploymentGroup(this, id, {
      alias,
      deploymentConfig,
      alarms,
      autoRollback: { failedDeployment: true, stoppedDeployment: true, deploymentInAlarm: true },
    });
  }
}

/** The scoring functions' entries: the files the local server runs. */
const ENTRIES = {
  api: 'functions/api/handler.ts',
  worker: 'functions/workers/score-chunk.ts',
  deadLetter: 'functions/workers/chunk-dead-letter.ts',
  batchWorker: 'functions/workers/batch-worker.ts',
} as const;

const SERVICE_NAME = 'rerank';
const METRICS_NAMESPACE = 'RerankService';
const LIVE_ALIAS = 'live';
const DEAD_LETTER_CONCURRENCY = 2;

const DEPLOYMENT_CONFIGS: Record<DeploymentPreference, codedeploy.ILambdaDeploymentConfig> = {
  AllAtOnce: codedeploy.LambdaDeploymentConfig.ALL_AT_ONCE,
  Canary10Percent5Minutes: codedeploy.LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES,
  Canary10Percent15Minutes: codedeploy.LambdaDeploymentConfig.CANARY_10PERCENT_15MINUTES,
  Linear10PercentEvery1Minute: codedeploy.LambdaDeploymentConfig.LINEAR_10PERCENT_EVERY_1MINUTE,
  Linear10PercentEvery3Minutes: codedeploy.LambdaDeploymentConfig.LINEAR_10PERCENT_EVERY_3MINUTES,
};
