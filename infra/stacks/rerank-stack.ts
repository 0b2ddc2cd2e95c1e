import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Construct } from 'constructs';
import type { RerankSettings } from '../config/rerank-settings.js';
import { ChunkQueues } from '../constructs/chunk-queues.js';
import { JobsTable, TABLE_ACCESS } from '../constructs/jobs-table.js';
import { RerankHttpApi } from '../constructs/rerank-http-api.js';
import { RerankMonitoring } from '../constructs/rerank-monitoring.js';
import { ScorerFunction } from '../constructs/scorer-function.js';

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
  readonly monitoring: RerankMonitoring;

  constructor(scope: Construct, id: string, props: RerankStackProps) {
    super(scope, id, props);
    const s = props.settings;
    const workerTimeout = Duration.seconds(s.workerTimeoutSeconds);
    const deadLetterTimeout = Duration.seconds(30);

    this.jobsTable = new JobsTable(this, 'Jobs', {
      pointInTimeRecovery: s.pointInTimeRecovery,
      // The table holds the API keys (hashed) as well as the jobs: deleting the stack must not delete them.
      removalPolicy: s.retainTable ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    this.chunkQueues = new ChunkQueues(this, 'Chunks', {
      workerTimeout,
      deadLetterConsumerTimeout: deadLetterTimeout,
      maxReceiveCount: s.maxReceiveCount,
      jobTtlSeconds: s.jobTtlSeconds,
    });

    // Every function reads the same validated service config (shared/config/service-config.ts).
    const environment = {
      RERANK_JOBS_BACKEND: 'aws',
      RERANK_SYNC_MAX_DOCUMENTS: String(s.syncMaxDocuments),
      RERANK_DEFAULT_BATCH_SIZE: String(s.defaultBatchSize),
      RERANK_JOB_WAIT_MS: String(s.jobWaitMs),
      RERANK_JOB_TTL_SECONDS: String(s.jobTtlSeconds),
      RERANK_MAX_RECEIVE_COUNT: String(s.maxReceiveCount),
      // Unset = no upstream host allowed, as the service's own default.
      ...(s.upstreamAllowedHosts ? { RERANK_UPSTREAM_ALLOWED_HOSTS: s.upstreamAllowedHosts } : {}),
      POWERTOOLS_SERVICE_NAME: 'rerank',
      POWERTOOLS_LOG_LEVEL: 'INFO',
      ...this.chunkQueues.environment,
    };
    const common = {
      projectRoot: props.projectRoot,
      architecture: s.architecture,
      models: s.deployModels,
      logRetentionDays: s.logRetentionDays,
      environment,
    };

    this.apiFunction = new ScorerFunction(this, 'Api', {
      ...common,
      entry: 'functions/api/handler.ts',
      description: 'Rerank API: every dialect route, synchronous scoring, job submit and poll',
      memoryMb: s.apiMemoryMb,
      timeout: Duration.seconds(s.apiTimeoutSeconds),
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
      entry: 'functions/workers/score-chunk.ts',
      description: 'Rerank worker: scores queued chunks and records them in the jobs table',
      memoryMb: s.workerMemoryMb,
      timeout: workerTimeout,
    });
    this.deadLetterFunction = new ScorerFunction(this, 'DeadLetter', {
      ...common,
      entry: 'functions/workers/chunk-dead-letter.ts',
      description: 'Rerank dead-letter consumer: fails the job of every chunk that could not be scored',
      memoryMb: s.deadLetterMemoryMb,
      timeout: deadLetterTimeout,
    });

    this.jobsTable.grantAccess(this.apiFunction.function, TABLE_ACCESS.api);
    this.jobsTable.grantAccess(this.workerFunction.function, TABLE_ACCESS.worker);
    this.jobsTable.grantAccess(this.deadLetterFunction.function, TABLE_ACCESS.deadLetter);
    this.chunkQueues.grantSendChunks(this.apiFunction.function);

    this.workerFunction.function.addEventSource(
      new SqsEventSource(this.chunkQueues.queue, {
        batchSize: s.workerBatchSize,
        maxBatchingWindow: Duration.seconds(s.workerBatchingWindowSeconds),
        maxConcurrency: s.workerMaxConcurrency,
        reportBatchItemFailures: true,
      }),
    );
    this.deadLetterFunction.function.addEventSource(
      new SqsEventSource(this.chunkQueues.deadLetterQueue, { batchSize: 10, maxConcurrency: 2, reportBatchItemFailures: true }),
    );

    this.api = new RerankHttpApi(this, 'Http', {
      apiName: s.apiName,
      handler: this.apiFunction.function,
      throttleRateLimit: s.throttleRateLimit,
      throttleBurstLimit: s.throttleBurstLimit,
      logRetentionDays: s.logRetentionDays,
    });

    this.monitoring = new RerankMonitoring(this, 'Monitoring', {
      dashboardName: `${this.stackName}-rerank`,
      httpApi: this.api.httpApi,
      functions: { Api: this.apiFunction.function, Worker: this.workerFunction.function, DeadLetter: this.deadLetterFunction.function },
      chunkQueue: this.chunkQueues.queue,
      deadLetterQueue: this.chunkQueues.deadLetterQueue,
      table: this.jobsTable.table,
      ...(s.alarmEmail ? { alarmEmail: s.alarmEmail } : {}),
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.url, description: 'Base URL; OpenAI-style clients use <ApiUrl>v1' });
    new CfnOutput(this, 'ApiFunctionName', { value: this.apiFunction.function.functionName });
    new CfnOutput(this, 'JobsTableName', {
      value: this.jobsTable.table.tableName,
      description: 'Jobs and API keys: npm run keys -- --table <JobsTableName> create --name <name>',
    });
    new CfnOutput(this, 'ChunkQueueName', { value: this.chunkQueues.queue.queueName });
    new CfnOutput(this, 'ChunkDeadLetterQueueName', { value: this.chunkQueues.deadLetterQueue.queueName });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.monitoring.alarmTopic.topicArn });
    new CfnOutput(this, 'DashboardName', { value: `${this.stackName}-rerank` });
  }
}
