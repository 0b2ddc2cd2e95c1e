import type { RecordedCall } from './aws-call-recorder.js';

/** What IAM authorizes: one action on one resource, with the request's condition keys. */
export interface IamRequest {
  readonly action: string;
  readonly resource: string;
  readonly context: Readonly<Record<string, readonly string[]>>;
}

/** The region and account every emulator ARN is written in (moto's default account); template ARNs resolve to the same. */
export const EMULATOR_REGION = 'us-east-1';
export const EMULATOR_ACCOUNT = '123456789012';

export const tableArn = (tableName: string): string =>
  tableName.startsWith('arn:') ? tableName : `arn:aws:dynamodb:${EMULATOR_REGION}:${EMULATOR_ACCOUNT}:table/${tableName}`;
export const bucketArn = (bucket: string): string => `arn:aws:s3:::${bucket}`;

/** `http://host:port/<account>/<name>` (moto, and AWS's own URL shape) -> the queue's ARN. */
export function queueArnOfUrl(queueUrl: string): string {
  const [account, name] = new URL(queueUrl).pathname.split('/').filter((part) => part !== '');
  if (account === undefined || name === undefined) throw new Error(`not a queue URL: ${queueUrl}`);
  return `arn:aws:sqs:${EMULATOR_REGION}:${account}:${name}`;
}

/** Every request is made over TLS on AWS (the SDK's default endpoints): the enforceSSL deny never matches it. */
const TRANSPORT = { 'aws:SecureTransport': ['true'] } as const;

type Attribute = Record<string, unknown>;
type Item = Record<string, Attribute>;

/** A key attribute's value as IAM compares it (strings; numbers as their text). */
function attributeText(attribute: Attribute | undefined): string | undefined {
  if (attribute === undefined) return undefined;
  const value = attribute['S'] ?? attribute['N'];
  if (typeof value === 'string') return value;
  const binary = attribute['B'];
  return binary instanceof Uint8Array ? Buffer.from(binary).toString('base64') : undefined;
}

/** The partition key value of an item or key, which `dynamodb:LeadingKeys` holds. */
function leadingKey(item: Item | undefined, partitionKey: string, where: string): string {
  const value = attributeText(item?.[partitionKey]);
  if (value === undefined) throw new Error(`${where}: no partition key '${partitionKey}' to compute dynamodb:LeadingKeys from`);
  return value;
}

/** The `pk = :value` of a KeyConditionExpression, with names and values substituted. */
function queryLeadingKey(input: Record<string, unknown>, partitionKey: string): string {
  const expression = String(input['KeyConditionExpression'] ?? input['KeyConditions'] ?? '');
  const names = (input['ExpressionAttributeNames'] ?? {}) as Record<string, string>;
  const values = (input['ExpressionAttributeValues'] ?? {}) as Item;
  for (const match of expression.matchAll(/(#?[A-Za-z0-9_]+)\s*=\s*(:[A-Za-z0-9_]+)/g)) {
    const name = match[1]!.startsWith('#') ? names[match[1]!] : match[1];
    if (name === partitionKey) return leadingKey({ [partitionKey]: values[match[2]!]! }, partitionKey, 'Query');
  }
  throw new Error(`Query without an equality on '${partitionKey}' in its KeyConditionExpression: ${expression}`);
}

function dynamodbRequests(call: RecordedCall, partitionKeyOf: (table: string) => string): IamRequest[] {
  const input = call.input as Record<string, unknown>;
  const one = (action: string, table: string, keys: readonly string[] | undefined, index?: string): IamRequest => ({
    action: `dynamodb:${action}`,
    resource: `${tableArn(table)}${index === undefined ? '' : `/index/${index}`}`,
    context: { ...TRANSPORT, ...(keys === undefined ? {} : { 'dynamodb:LeadingKeys': [...new Set(keys)] }) },
  });
  const table = String(input['TableName'] ?? '');
  switch (call.command) {
    case 'GetItem':
    case 'DeleteItem':
    case 'UpdateItem':
      return [one(call.command, table, [leadingKey(input['Key'] as Item, partitionKeyOf(table), call.command)])];
    case 'PutItem':
      return [one('PutItem', table, [leadingKey(input['Item'] as Item, partitionKeyOf(table), 'PutItem')])];
    case 'Query':
      return [one('Query', table, [queryLeadingKey(input, partitionKeyOf(table))], input['IndexName'] as string | undefined)];
    case 'Scan':
      // No partition key is named: LeadingKeys is absent (a ForAllValues condition then holds, as on AWS).
      return [one('Scan', table, undefined, input['IndexName'] as string | undefined)];
    case 'BatchGetItem':
      return Object.entries(input['RequestItems'] as Record<string, { Keys: Item[] }>).map(([name, request]) =>
        one(
          'BatchGetItem',
          name,
          request.Keys.map((key) => leadingKey(key, partitionKeyOf(name), 'BatchGetItem')),
        ),
      );
    case 'BatchWriteItem':
      return Object.entries(input['RequestItems'] as Record<string, { PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } }[]>).map(
        ([name, writes]) =>
          one(
            'BatchWriteItem',
            name,
            writes.map((w) => leadingKey(w.PutRequest?.Item ?? w.DeleteRequest?.Key, partitionKeyOf(name), 'BatchWriteItem')),
          ),
      );
    case 'TransactWriteItems':
      // IAM authorizes each item as its own action on its own table.
      return (input['TransactItems'] as Record<string, { TableName: string; Key?: Item; Item?: Item }>[]).map((entry) => {
        const [kind, item] = Object.entries(entry)[0]!;
        const action = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem' }[kind];
        if (action === undefined) throw new Error(`TransactWriteItems: unknown item kind ${kind}`);
        return one(action, item.TableName, [
          leadingKey(item.Key ?? item.Item, partitionKeyOf(item.TableName), `TransactWriteItems ${kind}`),
        ]);
      });
    case 'TransactGetItems':
      return (input['TransactItems'] as { Get: { TableName: string; Key: Item } }[]).map(({ Get }) =>
        one('GetItem', Get.TableName, [leadingKey(Get.Key, partitionKeyOf(Get.TableName), 'TransactGetItems')]),
      );
    case 'DescribeTable':
    case 'CreateTable':
    case 'DeleteTable':
    case 'UpdateTimeToLive':
    case 'DescribeTimeToLive':
      return [one(call.command, table, undefined)];
    default:
      throw new Error(`no IAM mapping for DynamoDB ${call.command}: add it to iam-requests.ts`);
  }
}

function s3Requests(call: RecordedCall): IamRequest[] {
  const input = call.input as {
    Bucket?: string;
    Key?: string;
    VersionId?: string;
    Delete?: { Objects?: { Key?: string; VersionId?: string }[] };
    CopySource?: string;
  };
  const bucket = input.Bucket ?? '';
  const onObject = (action: string, key = input.Key ?? ''): IamRequest => ({
    action: `s3:${action}`,
    resource: `${bucketArn(bucket)}/${key}`,
    context: TRANSPORT,
  });
  const onBucket = (action: string): IamRequest => ({ action: `s3:${action}`, resource: bucketArn(bucket), context: TRANSPORT });
  const versioned = (action: string) => (input.VersionId === undefined ? action : `${action}Version`);
  switch (call.command) {
    case 'GetObject':
    case 'HeadObject':
      return [onObject(versioned('GetObject'))];
    case 'GetObjectAttributes':
      return [onObject(versioned('GetObjectAttributes'))];
    case 'PutObject':
    case 'CreateMultipartUpload':
    case 'UploadPart':
    case 'CompleteMultipartUpload':
      // S3 authorizes every step of a multipart upload as PutObject on the key.
      return [onObject('PutObject')];
    case 'AbortMultipartUpload':
      return [onObject('AbortMultipartUpload')];
    case 'ListParts':
      return [onObject('ListMultipartUploadParts')];
    case 'DeleteObject':
      return [onObject(versioned('DeleteObject'))];
    case 'DeleteObjects':
      // One DeleteObject (or DeleteObjectVersion) per key: S3 answers a denied key in Errors, not as a failed call.
      return (input.Delete?.Objects ?? []).map((object) =>
        onObject(object.VersionId === undefined ? 'DeleteObject' : 'DeleteObjectVersion', object.Key),
      );
    case 'CopyObject':
    case 'UploadPartCopy': {
      const [sourceBucket, ...sourceKey] = decodeURIComponent((input.CopySource ?? '').replace(/^\//, '').split('?')[0]!).split('/');
      return [
        onObject('PutObject'),
        { action: 's3:GetObject', resource: `${bucketArn(sourceBucket ?? '')}/${sourceKey.join('/')}`, context: TRANSPORT },
      ];
    }
    case 'ListObjectsV2':
    case 'ListObjects':
      return [onBucket('ListBucket')];
    case 'ListObjectVersions':
      return [onBucket('ListBucketVersions')];
    case 'ListMultipartUploads':
      return [onBucket('ListBucketMultipartUploads')];
    case 'CreateBucket':
    case 'DeleteBucket':
      return [onBucket(call.command)];
    case 'HeadBucket':
      return [onBucket('ListBucket')];
    default:
      throw new Error(`no IAM mapping for S3 ${call.command}: add it to iam-requests.ts`);
  }
}

const SQS_ACTIONS: Readonly<Record<string, string>> = {
  SendMessage: 'SendMessage',
  SendMessageBatch: 'SendMessage',
  ReceiveMessage: 'ReceiveMessage',
  DeleteMessage: 'DeleteMessage',
  DeleteMessageBatch: 'DeleteMessage',
  ChangeMessageVisibility: 'ChangeMessageVisibility',
  ChangeMessageVisibilityBatch: 'ChangeMessageVisibility',
  GetQueueAttributes: 'GetQueueAttributes',
  SetQueueAttributes: 'SetQueueAttributes',
  PurgeQueue: 'PurgeQueue',
  DeleteQueue: 'DeleteQueue',
  CreateQueue: 'CreateQueue',
  GetQueueUrl: 'GetQueueUrl',
};

function sqsRequests(call: RecordedCall): IamRequest[] {
  const action = SQS_ACTIONS[call.command];
  if (action === undefined) throw new Error(`no IAM mapping for SQS ${call.command}: add it to iam-requests.ts`);
  const { QueueUrl, QueueName } = call.input as { QueueUrl?: string; QueueName?: string };
  const resource =
    QueueUrl !== undefined ? queueArnOfUrl(QueueUrl) : `arn:aws:sqs:${EMULATOR_REGION}:${EMULATOR_ACCOUNT}:${QueueName ?? ''}`;
  return [{ action: `sqs:${action}`, resource, context: TRANSPORT }];
}

/**
 * The IAM requests one SDK command makes. Not one to one: a DeleteObjects is a DeleteObject per key, a HeadObject a
 * GetObject, a multipart step a PutObject, a batch send a SendMessage, a transaction one action per item. A command
 * with no mapping throws, so a new call the adapters start making cannot pass unchecked.
 */
export function iamRequestsOf(call: RecordedCall, partitionKeyOf: (table: string) => string): IamRequest[] {
  switch (call.service) {
    case 'dynamodb':
      return dynamodbRequests(call, partitionKeyOf);
    case 's3':
      return s3Requests(call);
    case 'sqs':
      return sqsRequests(call);
  }
}
