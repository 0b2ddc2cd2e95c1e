import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

export interface NagAcknowledgement {
  /** cdk-nag rule id, with the finding in brackets when the rule reports several. */
  readonly id: string;
  /** Why the finding is accepted: shown in the synth report and kept in the template metadata. */
  readonly reason: string;
}

/** Accepted findings by rule. Each is applied only to the constructs named at the call, never stack-wide. */
export const NAG_ACKNOWLEDGEMENTS = {
  xrayWildcard: {
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason:
      'X-Ray active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions, so AWS requires Resource "*"; every other statement names its resource',
  },
  publicRoutes: {
    id: 'AwsSolutions-APIG4',
    reason:
      'GET /health and GET /openapi.json are public by design (health checks, client schema discovery); they return no data of any caller',
  },
  functionAuthenticates: {
    id: 'AwsSolutions-APIG4',
    reason:
      'rerank:edgeAuthorizer=false was chosen: the API function authenticates every non-public route itself (401 in the dialect envelope), at the cost of invoking it for rejected requests',
  },
  throwawayTable: {
    id: 'AwsSolutions-DDB3',
    reason:
      'rerank:pointInTimeRecovery=false was chosen (PITR follows rerank:retainTable=false by default): a throwaway stage whose keys and jobs are not kept',
  },
  alarmMailHasNoRedrive: {
    id: 'Serverless-SNSRedrivePolicy',
    reason:
      'The only subscription is the operator alarm e-mail: SNS retries it, and the alarm state and history stay in CloudWatch, so a dead-letter queue would only hold copies nobody reads',
  },
  codeDeployRole: {
    id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
    reason:
      "CodeDeploy's service role for Lambda rollouts uses the managed policy AWS maintains for it (the Limited variant: alias updates, alarm reads)",
  },
  dlqHasNoRedrive: {
    id: 'Serverless-SQSRedrivePolicy',
    reason: 'This queue is the dead-letter queue; a message its consumer cannot process stays 14 days and the DLQ alarm has already fired',
  },
  noAsyncInvocations: {
    id: 'Serverless-LambdaDLQ',
    reason:
      'No function is invoked asynchronously: API and authorizer synchronously by API Gateway, worker and dead-letter consumer by SQS event source mappings, whose failures the queue redrive handles',
  },
  sqsEventSourceFailures: {
    id: 'Serverless-LambdaEventSourceMappingDestination',
    reason:
      'SQS event sources take no on-failure destination: failed chunks return to the queue and go to the DLQ after maxReceiveCount (redrive policy); the DLQ consumer fails their jobs',
  },
  fileObjectPrefixes: {
    id: 'AwsSolutions-IAM5[Resource::<files bucket>.Arn/<prefix>/*]',
    reason:
      'File ids are made at run time: object grants name the FileStore key prefix (files/* for bytes, owners/* for the per-key index, usage/* for the per-key quota count, derived/* for the stored analysis of a corpus, derived-due/* for when that analysis is due to go) of the one files bucket, with each action named',
  },
  scheduleNeedsNoDlq: {
    id: 'Serverless-EventBusDLQ',
    reason:
      'The batch expiry schedule is idempotent and runs every 5 minutes: a delivery that fails after its retries is simply done by the next one',
  },
  accessLogBucketNotLogged: {
    id: 'AwsSolutions-S1',
    reason: 'This is the server access log bucket of the files bucket; logging its own writes into itself would loop, as AWS documents',
  },
} as const satisfies Record<string, NagAcknowledgement>;

export function acknowledge(scope: IConstruct, ...acknowledgements: NagAcknowledgement[]): void {
  Validations.of(scope).acknowledge(...acknowledgements);
}
