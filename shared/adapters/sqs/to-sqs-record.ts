import type { Message } from '@aws-sdk/client-sqs';
import type { SQSMessageAttributes, SQSRecord } from 'aws-lambda';

/**
 * A received message in the exact shape the Lambda SQS event source hands a function, so the worker handler
 * runs unchanged locally. Binary attribute values become base64 as in real events.
 */
export function toSqsRecord(message: Message, eventSourceARN: string): SQSRecord {
  const attrs = message.Attributes ?? {};
  const messageAttributes: SQSMessageAttributes = {};
  for (const [name, value] of Object.entries(message.MessageAttributes ?? {})) {
    messageAttributes[name] = {
      dataType: value.DataType ?? 'String',
      ...(value.StringValue === undefined ? {} : { stringValue: value.StringValue }),
      ...(value.BinaryValue === undefined ? {} : { binaryValue: Buffer.from(value.BinaryValue).toString('base64') }),
      stringListValues: value.StringListValues ?? [],
      binaryListValues: (value.BinaryListValues ?? []).map((b) => Buffer.from(b).toString('base64')),
    };
  }
  if (message.MessageId === undefined || message.ReceiptHandle === undefined) throw new Error('SQS message without id or receipt handle');
  return {
    messageId: message.MessageId,
    receiptHandle: message.ReceiptHandle,
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attrs.ApproximateReceiveCount ?? '1',
      SentTimestamp: attrs.SentTimestamp ?? String(Date.now()),
      SenderId: attrs.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp: attrs.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
      ...(attrs.AWSTraceHeader === undefined ? {} : { AWSTraceHeader: attrs.AWSTraceHeader }),
      ...(attrs.SequenceNumber === undefined ? {} : { SequenceNumber: attrs.SequenceNumber }),
      ...(attrs.MessageGroupId === undefined ? {} : { MessageGroupId: attrs.MessageGroupId }),
      ...(attrs.MessageDeduplicationId === undefined ? {} : { MessageDeduplicationId: attrs.MessageDeduplicationId }),
      ...(attrs.DeadLetterQueueSourceArn === undefined ? {} : { DeadLetterQueueSourceArn: attrs.DeadLetterQueueSourceArn }),
    },
    messageAttributes,
    md5OfBody: message.MD5OfBody ?? '',
    ...(message.MD5OfMessageAttributes === undefined ? {} : { md5OfMessageAttributes: message.MD5OfMessageAttributes }),
    eventSource: 'aws:sqs',
    eventSourceARN,
    // arn:aws:sqs:<region>:<account>:<name>
    awsRegion: eventSourceARN.split(':')[3] ?? 'us-east-1',
  };
}
