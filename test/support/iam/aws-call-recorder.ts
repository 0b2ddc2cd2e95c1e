import { AsyncLocalStorage } from 'node:async_hooks';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';

/** The Lambda functions of the stack whose calls the IAM check attributes (template-roles.ts finds each one's role). */
export type LambdaName = 'api' | 'worker' | 'deadLetter' | 'batchWorker' | 'batchDeadLetter' | 'authorizer';

export type AwsService = 's3' | 'dynamodb' | 'sqs';

/** One SDK command as sent, with the input fields IAM decides on (never a body). */
export interface RecordedCall {
  /** Undefined for the test's own set-up and checks, which act as the operator, not as a function. */
  readonly lambda: LambdaName | undefined;
  readonly service: AwsService;
  /** The SDK's command name without `Command` (`PutObject`, `TransactWriteItems`). */
  readonly command: string;
  readonly input: Readonly<Record<string, unknown>>;
}

/**
 * Kept on globalThis: the SDK modules (and so the patched `send`) outlive this module when a test runner re-imports
 * test code for the next file in the same process, and every copy of this module must feed the same records.
 */
const shared = ((globalThis as { [key: symbol]: unknown })[Symbol.for('rerank.iam.recorder')] ??= {
  running: new AsyncLocalStorage<LambdaName>(),
  calls: [] as RecordedCall[],
}) as { readonly running: AsyncLocalStorage<LambdaName>; readonly calls: RecordedCall[] };
const { running, calls } = shared;

/** Runs `fn` as `lambda`: every AWS call it makes, directly or through anything it starts, is that function's. */
export function runAsLambda<R>(lambda: LambdaName, fn: () => R): R {
  return running.run(lambda, fn);
}

/** A handler (or an SQS poller's handler) that runs as `lambda` each time it is called. */
export function asLambda<A extends unknown[], R>(lambda: LambdaName, fn: (...args: A) => R): (...args: A) => R {
  return (...args: A) => running.run(lambda, () => fn(...args));
}

/** What has been recorded since the process started (or the last `clearRecordedCalls`). */
export const recordedCalls = (): readonly RecordedCall[] => calls;

export function clearRecordedCalls(): void {
  calls.length = 0;
}

/** Fields IAM reads; S3 bodies and SQS message bodies are left out so recording holds no payload. */
function inputForIam(service: AwsService, input: Record<string, unknown>): Record<string, unknown> {
  if (service === 'dynamodb') return structuredClone(input);
  const pick = service === 's3' ? ['Bucket', 'Key', 'VersionId', 'Delete', 'CopySource', 'Prefix'] : ['QueueUrl', 'QueueName'];
  return Object.fromEntries(pick.filter((name) => input[name] !== undefined).map((name) => [name, structuredClone(input[name])]));
}

const RECORDING = Symbol.for('rerank.iam.recording');
type Sendable = { send: (...args: unknown[]) => unknown; middlewareStack: { add: (mw: unknown, options: unknown) => void } };

/**
 * An initialize-step middleware on every S3, DynamoDB and SQS client the process creates, wherever it is created
 * (the runtime, the adapters' defaults, a test): the class's `send` adds it to each client the first time the client
 * sends. A presigned URL is built on the client's stack, so it is recorded as the signing function's call.
 */
export function installAwsCallRecorder(): void {
  // A suite starts from nothing: an earlier file's calls (other emulators, other names) are not its to check.
  clearRecordedCalls();
  const services: [new (...args: never[]) => unknown, AwsService][] = [
    [S3Client, 's3'],
    [DynamoDBClient, 'dynamodb'],
    [SQSClient, 'sqs'],
  ];
  for (const [Client, service] of services) {
    const prototype = Client.prototype as Sendable & { [RECORDING]?: true };
    if (prototype[RECORDING]) continue;
    const inherited = Object.getPrototypeOf(prototype) as Sendable;
    const instrumented = new WeakSet<object>();
    prototype.send = function send(this: Sendable, ...args: unknown[]) {
      if (!instrumented.has(this)) {
        instrumented.add(this);
        this.middlewareStack.add(
          (next: (args: { input: Record<string, unknown> }) => Promise<unknown>, context: { commandName?: string }) =>
            (args: { input: Record<string, unknown> }) => {
              calls.push({
                lambda: running.getStore(),
                service,
                command: (context.commandName ?? '?').replace(/Command$/, ''),
                input: inputForIam(service, args.input),
              });
              return next(args);
            },
          { step: 'initialize', name: 'iamCallRecorder' },
        );
      }
      return inherited.send.apply(this, args);
    };
    prototype[RECORDING] = true;
  }
}
