import {
  ProvisionedThroughputExceededException,
  ThrottlingException,
  TransactionCanceledException,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { RequestThrottled, SQSClient } from '@aws-sdk/client-sqs';
import type { FinalizeRequestMiddleware, InitializeMiddleware, MetadataBearer, MiddlewareStack } from '@smithy/types';
import type { FaultCounts } from './fault-counts.js';

/** Probabilities per SDK call; 0 turns a fault off. */
export interface SdkFaultRates {
  /** Any DynamoDB, SQS or S3 data call: a throttling error before the request reaches the server (S3: `SlowDown`). */
  readonly throttle: number;
  /** TransactWriteItems: cancelled with `TransactionConflict` before it reaches the server. */
  readonly transactionConflict: number;
  /** DynamoDB writes and SQS ReceiveMessage: the server applies the call, then the response is lost (a timeout). */
  readonly lostResponse: number;
  /** DeleteMessageBatch: silently never sent, so the messages come back after their visibility timeout. */
  readonly dropDelete: number;
  /** SendMessageBatch: sent twice (every chunk of the batch is delivered twice). */
  readonly duplicateSend: number;
}

export const NO_SDK_FAULTS: SdkFaultRates = { throttle: 0, transactionConflict: 0, lostResponse: 0, dropDelete: 0, duplicateSend: 0 };

export interface SdkFaultOptions {
  readonly rates: SdkFaultRates;
  readonly random: () => number;
  readonly counts: FaultCounts;
  /**
   * `inside-retry`: faults are raised below the SDK's retry middleware, so its own retries (and retry quota) see
   * them first; `outside-retry`: raised above it, so every fault reaches the application's own handling.
   */
  readonly placement: 'inside-retry' | 'outside-retry';
}

type Client = DynamoDBClient | SQSClient | S3Client;
type Service = 'sqs' | 'dynamodb' | 's3';
/** Setup calls are left alone: a fault there tests the harness, not the service. */
const SETUP_COMMANDS = new Set([
  'GetQueueAttributesCommand',
  'CreateQueueCommand',
  'CreateTableCommand',
  'DescribeTableCommand',
  'UpdateTimeToLiveCommand',
]);
const DYNAMODB_WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'TransactWriteItemsCommand', 'DeleteItemCommand']);

const metadata = { httpStatusCode: 400 };

function throttlingError(service: Service, random: () => number): Error {
  const message = `injected throttling`;
  // S3 answers 503 SlowDown, which the SDK's retry classifies as throttling by its name.
  if (service === 's3')
    return Object.assign(new Error(message), { name: 'SlowDown', $fault: 'server', $metadata: { httpStatusCode: 503 } });
  if (service === 'sqs') return new RequestThrottled({ message, $metadata: metadata });
  return random() < 0.5
    ? new ProvisionedThroughputExceededException({ message, $metadata: metadata })
    : new ThrottlingException({ message, $metadata: metadata });
}

/** What a client sees when the connection drops after the server has done the work. */
function lostResponseError(command: string): Error {
  return Object.assign(new Error(`injected lost response on ${command}`), { name: 'TimeoutError', $metadata: {} });
}

/**
 * Adds one middleware to a real SDK client that makes its calls fail the way AWS calls fail: throttling,
 * transaction conflicts, lost responses, dropped deletes and duplicated sends, drawn from a seeded random source.
 */
export function injectSdkFaults(client: Client, options: SdkFaultOptions): void {
  const { rates, random, counts } = options;
  const service: Service = client instanceof SQSClient ? 'sqs' : client instanceof S3Client ? 's3' : 'dynamodb';
  const middleware = ((next: (args: { input: Record<string, unknown> }) => Promise<unknown>, context: { commandName?: string }) =>
    async (args: { input: Record<string, unknown> }) => {
      const command = context.commandName ?? 'unknown';
      if (SETUP_COMMANDS.has(command)) return next(args);
      if (command === 'DeleteMessageBatchCommand' && random() < rates.dropDelete) {
        counts.add('sqs: DeleteMessageBatch dropped (redelivery)');
        const entries = (args.input['Entries'] as { Id: string }[] | undefined) ?? [];
        return { output: { $metadata: {}, Successful: entries.map((e) => ({ Id: e.Id })), Failed: [] }, response: {} };
      }
      if (random() < rates.throttle) {
        counts.add(`${service}: throttled (${options.placement})`);
        throw throttlingError(service, random);
      }
      if (command === 'TransactWriteItemsCommand' && random() < rates.transactionConflict) {
        counts.add('dynamodb: TransactionConflict cancellation');
        throw new TransactionCanceledException({
          message: 'injected: Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict]',
          $metadata: metadata,
          CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }],
        });
      }
      if (command === 'SendMessageBatchCommand' && random() < rates.duplicateSend) {
        counts.add('sqs: SendMessageBatch sent twice (duplicate chunks)');
        await next(args);
      }
      const lossy = DYNAMODB_WRITES.has(command) || command === 'ReceiveMessageCommand';
      if (lossy && random() < rates.lostResponse) {
        await next(args);
        counts.add(
          `${command === 'ReceiveMessageCommand' ? 'sqs' : 'dynamodb'}: response lost after the server applied ${command.replace('Command', '')}`,
        );
        throw lostResponseError(command);
      }
      return next(args);
    }) as unknown as InitializeMiddleware<object, MetadataBearer> & FinalizeRequestMiddleware<object, MetadataBearer>;
  // One middleware serves both clients; the stacks differ only in their input/output type parameters.
  const stack = client.middlewareStack as unknown as MiddlewareStack<object, MetadataBearer>;
  if (options.placement === 'inside-retry') stack.add(middleware, { step: 'finalizeRequest', priority: 'low', name: 'chaosFaults' });
  else stack.add(middleware, { step: 'initialize', priority: 'high', name: 'chaosFaults' });
}
