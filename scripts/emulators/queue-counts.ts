import { GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';

/** SQS's approximate counts of a queue: what tells a settled queue, and a slow message from a lost one. */
export interface QueueCounts {
  readonly visible: number;
  readonly inFlight: number;
  readonly delayed: number;
}

export async function queueCounts(client: SQSClient, queueUrl: string): Promise<QueueCounts> {
  const names = ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'] as const;
  const { Attributes = {} } = await client.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: [...names] }));
  const [visible, inFlight, delayed] = names.map((name) => Number(Attributes[name] ?? 0)) as [number, number, number];
  return { visible, inFlight, delayed };
}
