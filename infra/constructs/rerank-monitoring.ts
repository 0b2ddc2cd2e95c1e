import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import {
  BATCH_CHUNKS_METRIC,
  BATCH_CHUNK_DOCUMENTS_METRIC,
  BATCH_CHUNK_SOURCE_DIMENSION,
  BATCH_SOURCES,
} from '../../shared/observability/batch-metric-names.js';

export interface RerankMonitoringProps {
  readonly dashboardName: string;
  readonly httpApi: apigwv2.HttpApi;
  /** Functions by a short label used in alarm names and widgets. */
  readonly functions: Readonly<Record<string, lambda.IFunction>>;
  readonly chunkQueue: sqs.IQueue;
  readonly deadLetterQueue: sqs.IQueue;
  /** The batch task queue's DLQ: a task there ended its line (or batch) failed. */
  readonly batchDeadLetterQueue?: sqs.IQueue;
  readonly table: dynamodb.ITable;
  /** E-mail subscribed to the alarm topic; undefined only when the operator opted out (rerank:alarmEmail=none). */
  readonly alarmEmail?: string;
  /** API p99 latency (ms) above which someone should look: near the job wait, requests are waiting or timing out. */
  readonly apiLatencyP99ThresholdMs: number;
  /** A chunk older than this has waited for a worker too long (workers throttled, failing, or too few). */
  readonly oldestChunkAgeThresholdSeconds: number;
  /** Namespace of the service's own EMF metrics (POWERTOOLS_METRICS_NAMESPACE). */
  readonly metricsNamespace: string;
  /** The `service` dimension Powertools adds to every metric (POWERTOOLS_SERVICE_NAME). */
  readonly serviceName: string;
}

const FIVE_MINUTES = Duration.minutes(5);

/** Emitted by shared/observability/record-job-metrics.ts when a job ends failed (merge or dead letter). */
export const JOBS_FAILED_METRIC = 'JobsFailed';

/**
 * Alarms that need a human (chunks dead-lettered, failed jobs, function errors and throttles, API 5xx and p99
 * latency, chunks waiting too long, table throttles), all sent to one KMS-encrypted SNS topic when they fire and
 * when they recover, and a dashboard of the request path: API, functions, queues, table.
 */
export class RerankMonitoring extends Construct {
  readonly alarmTopic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: RerankMonitoringProps) {
    super(scope, id);
    // A customer-managed key (the AWS-managed SNS key cannot let CloudWatch publish); CloudWatch may use it.
    const topicKey = new kms.Key(this, 'AlarmTopicKey', {
      description: 'Encrypts the rerank alarm topic',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    topicKey.grant(new iam.ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    this.alarmTopic = new sns.Topic(this, 'AlarmTopic', { displayName: 'Rerank service alarms', enforceSSL: true, masterKey: topicKey });
    if (props.alarmEmail) this.alarmTopic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));

    // NumberOfMessagesReceived, not ...Visible: the dead-letter function drains the DLQ at once, so it is rarely visible.
    this.#alarm('DeadLetterQueueReceived', 'Chunks were dead-lettered: their jobs failed (the DLQ consumer marks them)', {
      metric: props.deadLetterQueue.metricNumberOfMessagesReceived({ period: FIVE_MINUTES, statistic: 'Sum' }),
      threshold: 0,
    });
    if (props.batchDeadLetterQueue) {
      this.#alarm('BatchDeadLetterQueueReceived', 'Batch tasks were dead-lettered: their lines (or batches) ended failed', {
        metric: props.batchDeadLetterQueue.metricNumberOfMessagesReceived({ period: FIVE_MINUTES, statistic: 'Sum' }),
        threshold: 0,
      });
    }
    this.#alarm('JobsFailed', 'Jobs ended failed (a chunk was dead-lettered or could not be merged)', {
      metric: new cloudwatch.Metric({
        namespace: props.metricsNamespace,
        metricName: JOBS_FAILED_METRIC,
        dimensionsMap: { service: props.serviceName },
        period: FIVE_MINUTES,
        statistic: 'Sum',
      }),
      threshold: 0,
    });
    this.#alarm('ApiLatencyP99', `API p99 latency above ${props.apiLatencyP99ThresholdMs} ms for 15 minutes`, {
      metric: props.httpApi.metricLatency({ period: FIVE_MINUTES, statistic: 'p99' }),
      threshold: props.apiLatencyP99ThresholdMs,
      evaluationPeriods: 3,
    });
    this.#alarm('OldestChunkAge', `A chunk has waited more than ${props.oldestChunkAgeThresholdSeconds} s for a worker`, {
      metric: props.chunkQueue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES, statistic: 'Maximum' }),
      threshold: props.oldestChunkAgeThresholdSeconds,
    });
    this.#alarm('TableThrottles', 'The jobs table throttled reads or writes (clients got 429 or jobs slowed)', {
      metric: new cloudwatch.MathExpression({
        expression: 'reads + writes',
        usingMetrics: {
          reads: props.table.metric('ReadThrottleEvents', { statistic: 'Sum' }),
          writes: props.table.metric('WriteThrottleEvents', { statistic: 'Sum' }),
        },
        period: FIVE_MINUTES,
        label: 'Throttle events',
      }),
      threshold: 0,
    });
    for (const [label, fn] of Object.entries(props.functions)) {
      this.#alarm(`${label}Errors`, `${label} function invocations failed (crash, timeout or out of memory)`, {
        metric: fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
        threshold: 0,
      });
      this.#alarm(`${label}Throttles`, `${label} function invocations were throttled`, {
        metric: fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
        threshold: 0,
      });
    }
    this.#alarm('Api5xx', 'The API answered 5xx (handler start-up failure, integration timeout or Lambda error)', {
      metric: props.httpApi.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' }),
      threshold: 0,
    });

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', { dashboardName: props.dashboardName });
    const fns = Object.entries(props.functions);
    this.dashboard.addWidgets(
      graph('API requests', [props.httpApi.metricCount({ statistic: 'Sum' })]),
      graph('API 4xx / 5xx', [
        props.httpApi.metricClientError({ statistic: 'Sum' }),
        props.httpApi.metricServerError({ statistic: 'Sum' }),
      ]),
      graph('API latency p50 / p99 (ms)', [
        props.httpApi.metricLatency({ statistic: 'p50' }),
        props.httpApi.metricLatency({ statistic: 'p99' }),
      ]),
    );
    this.dashboard.addWidgets(
      graph(
        'Invocations',
        fns.map(([label, fn]) => fn.metricInvocations({ statistic: 'Sum', label })),
      ),
      graph(
        'Errors / throttles',
        fns.flatMap(([label, fn]) => [
          fn.metricErrors({ statistic: 'Sum', label: `${label} errors` }),
          fn.metricThrottles({ statistic: 'Sum', label: `${label} throttles` }),
        ]),
      ),
      graph(
        'Duration p99 (ms)',
        fns.map(([label, fn]) => fn.metricDuration({ statistic: 'p99', label })),
      ),
    );
    this.dashboard.addWidgets(
      graph('Chunk queue: visible / oldest (s)', [
        props.chunkQueue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum' }),
        props.chunkQueue.metricApproximateAgeOfOldestMessage({ statistic: 'Maximum' }),
      ]),
      graph('Dead-letter queue: visible', [props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum' })]),
      graph('Jobs table: consumed RCU / WCU', [
        props.table.metricConsumedReadCapacityUnits({ statistic: 'Sum' }),
        props.table.metricConsumedWriteCapacityUnits({ statistic: 'Sum' }),
      ]),
    );
    if (props.batchDeadLetterQueue) {
      // A corpus's chunks by where their document side came from: analysed once, then read from the stored analysis.
      const bySource = (metricName: string) =>
        BATCH_SOURCES.map(
          (source) =>
            new cloudwatch.Metric({
              namespace: props.metricsNamespace,
              metricName,
              dimensionsMap: { service: props.serviceName, [BATCH_CHUNK_SOURCE_DIMENSION]: source },
              statistic: 'Sum',
              label: source,
            }),
        );
      this.dashboard.addWidgets(
        graph('Batch chunks by source (analysed / stored / encoded)', bySource(BATCH_CHUNKS_METRIC)),
        graph('Batch documents scored by source', bySource(BATCH_CHUNK_DOCUMENTS_METRIC)),
      );
    }
  }

  #alarm(
    id: string,
    description: string,
    options: { metric: cloudwatch.IMetric; threshold: number; evaluationPeriods?: number },
  ): cloudwatch.Alarm {
    const alarm = new cloudwatch.Alarm(this, id, {
      alarmDescription: description,
      metric: options.metric,
      threshold: options.threshold,
      evaluationPeriods: options.evaluationPeriods ?? 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    const action = new actions.SnsAction(this.alarmTopic);
    alarm.addAlarmAction(action);
    // Recovery is news too: whoever was paged learns it is over without opening the console.
    alarm.addOkAction(action);
    this.alarms.push(alarm);
    return alarm;
  }

  /** The alarms that roll a CodeDeploy deployment of the API back (its own errors, 5xx and latency). */
  get apiRollbackAlarms(): cloudwatch.IAlarm[] {
    return this.alarms.filter((a) => ['ApiErrors', 'Api5xx', 'ApiLatencyP99'].includes(a.node.id));
  }

  /** The alarms that roll a deployment of the worker back. */
  get workerRollbackAlarms(): cloudwatch.IAlarm[] {
    return this.alarms.filter((a) => ['WorkerErrors', 'JobsFailed', 'DeadLetterQueueReceived'].includes(a.node.id));
  }
}

function graph(title: string, left: cloudwatch.IMetric[]): cloudwatch.GraphWidget {
  return new cloudwatch.GraphWidget({ title, left, width: 8, height: 6 });
}
