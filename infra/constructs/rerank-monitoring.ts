import { Duration } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface RerankMonitoringProps {
  readonly dashboardName: string;
  readonly httpApi: apigwv2.HttpApi;
  /** Functions by a short label used in alarm names and widgets. */
  readonly functions: Readonly<Record<string, lambda.IFunction>>;
  readonly chunkQueue: sqs.IQueue;
  readonly deadLetterQueue: sqs.IQueue;
  readonly table: dynamodb.ITable;
  /** Optional e-mail subscribed to the alarm topic. */
  readonly alarmEmail?: string;
}

const FIVE_MINUTES = Duration.minutes(5);

/**
 * Alarms that need a human (chunks dead-lettered, function errors and throttles, API 5xx), all sent to one
 * SNS topic, and a dashboard of the request path: API, functions, queues, table.
 */
export class RerankMonitoring extends Construct {
  readonly alarmTopic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: RerankMonitoringProps) {
    super(scope, id);
    this.alarmTopic = new sns.Topic(this, 'AlarmTopic', { displayName: 'Rerank service alarms', enforceSSL: true });
    if (props.alarmEmail) this.alarmTopic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));

    this.alarm('DeadLetterQueueNotEmpty', 'Chunks were dead-lettered: their jobs failed (the DLQ consumer marks them)', {
      metric: props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' }),
      threshold: 0,
    });
    for (const [label, fn] of Object.entries(props.functions)) {
      this.alarm(`${label}Errors`, `${label} function invocations failed (crash, timeout or out of memory)`, {
        metric: fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
        threshold: 0,
      });
      this.alarm(`${label}Throttles`, `${label} function invocations were throttled`, {
        metric: fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
        threshold: 0,
      });
    }
    this.alarm('Api5xx', 'The API answered 5xx (handler start-up failure, integration timeout or Lambda error)', {
      metric: props.httpApi.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' }),
      threshold: 0,
    });

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', { dashboardName: props.dashboardName });
    const fns = Object.entries(props.functions);
    this.dashboard.addWidgets(
      graph('API requests', [props.httpApi.metricCount({ statistic: 'Sum' })]),
      graph('API 4xx / 5xx', [props.httpApi.metricClientError({ statistic: 'Sum' }), props.httpApi.metricServerError({ statistic: 'Sum' })]),
      graph('API latency p50 / p99 (ms)', [
        props.httpApi.metricLatency({ statistic: 'p50' }),
        props.httpApi.metricLatency({ statistic: 'p99' }),
      ]),
    );
    this.dashboard.addWidgets(
      graph('Invocations', fns.map(([label, fn]) => fn.metricInvocations({ statistic: 'Sum', label }))),
      graph('Errors / throttles', fns.flatMap(([label, fn]) => [
        fn.metricErrors({ statistic: 'Sum', label: `${label} errors` }),
        fn.metricThrottles({ statistic: 'Sum', label: `${label} throttles` }),
      ])),
      graph('Duration p99 (ms)', fns.map(([label, fn]) => fn.metricDuration({ statistic: 'p99', label }))),
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
  }

  private alarm(id: string, description: string, options: { metric: cloudwatch.IMetric; threshold: number }): void {
    const alarm = new cloudwatch.Alarm(this, id, {
      alarmDescription: description,
      metric: options.metric,
      threshold: options.threshold,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(new actions.SnsAction(this.alarmTopic));
    this.alarms.push(alarm);
  }
}

function graph(title: string, left: cloudwatch.IMetric[]): cloudwatch.GraphWidget {
  return new cloudwatch.GraphWidget({ title, left, width: 8, height: 6 });
}
