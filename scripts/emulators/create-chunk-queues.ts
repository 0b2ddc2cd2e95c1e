import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';

export interface ChunkQueuesOptions {
  /** Receives before SQS moves a message to the DLQ. */
  readonly maxReceiveCount?: number;
  /** Should exceed the worker's timeout, or a slow chunk is redelivered while still being scored. */
  readonly visibilityTimeoutSeconds?: number;
}

export interface ChunkQueues {
  readonly queueUrl: string;
  readonly queueArn: string;
  readonly dlqUrl: string;
  readonly dlqArn: string;
}

/**
 * Creates the chunk queue and its DLQ for local emulators (CDK owns the deployed pair with the same settings).
 * MaximumMessageSize is set explicitly to 1 MiB on both: chunks carry their documents inline.
 */
export async function createChunkQueues(client: SQSClient, name: string, options: ChunkQueuesOptions = {}): Promise<ChunkQueues> {
  const maxSize = '1048576';
  const dlqUrl = await createQueue(client, `${name}-dlq`, { MaximumMessageSize: maxSize, MessageRetentionPeriod: '1209600' });
  const dlqArn = await queueArn(client, dlqUrl);
  const queueUrl = await createQueue(client, name, {
    MaximumMessageSize: maxSize,
    VisibilityTimeout: String(options.visibilityTimeoutSeconds ?? 30),
    RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: options.maxReceiveCount ?? 3 }),
  });
  return { queueUrl, queueArn: await queueArn(client, queueUrl), dlqUrl, dlqArn };
}

async function createQueue(client: SQSClient, name: string, attributes: Record<string, string>): Promise<string> {
  const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
  if (QueueUrl === undefined) throw new Error(`CreateQueue ${name} returned no URL`);
  return QueueUrl;
}

export async function queueArn(client: SQSClient, queueUrl: string): Promise<string> {
  const { Attributes } = await client.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }));
  const arn = Attributes?.['QueueArn'];
  if (arn === undefined) throw new Error(`no QueueArn for ${queueUrl}`);
  return arn;
}
