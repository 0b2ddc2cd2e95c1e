import { describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../support/iam/aws-call-recorder.js';
import { evaluateRequest, type PolicyStatement } from '../../support/iam/iam-policy-evaluator.js';
import { iamRequestsOf, type IamRequest } from '../../support/iam/iam-requests.js';

const TABLE = 'arn:aws:dynamodb:us-east-1:123456789012:table/jobs';
const request = (action: string, resource: string, context: Record<string, string[]> = {}): IamRequest => ({
  action,
  resource,
  context: { 'aws:SecureTransport': ['true'], ...context },
});
const leading = (patterns: string[], actions: string[] = ['dynamodb:GetItem']): PolicyStatement => ({
  Effect: 'Allow',
  Action: actions,
  Resource: TABLE,
  Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': patterns } },
});

describe('evaluateRequest', () => {
  it('allows by action and resource wildcards, actions case-insensitively and resources exactly', () => {
    const statements: PolicyStatement[] = [{ Effect: 'Allow', Action: 's3:Get*', Resource: 'arn:aws:s3:::files/files/*' }];
    expect(evaluateRequest(request('s3:GetObject', 'arn:aws:s3:::files/files/file-1'), statements).decision).toBe('allow');
    expect(evaluateRequest(request('S3:GETOBJECT', 'arn:aws:s3:::files/files/file-1'), statements).decision).toBe('allow');
    expect(evaluateRequest(request('s3:GetObject', 'arn:aws:s3:::files/usage/k/file-1'), statements).decision).toBe('implicit-deny');
    expect(evaluateRequest(request('s3:GetObject', 'arn:aws:s3:::files/FILES/x'), statements).decision).toBe('implicit-deny');
    expect(evaluateRequest(request('s3:PutObject', 'arn:aws:s3:::files/files/file-1'), statements).decision).toBe('implicit-deny');
  });

  it('checks every leading key of a request against ForAllValues:StringLike', () => {
    const statements = [leading(['JOB#*', 'RATE#*'])];
    expect(evaluateRequest(request('dynamodb:GetItem', TABLE, { 'dynamodb:LeadingKeys': ['JOB#1', 'RATE#k'] }), statements).decision).toBe(
      'allow',
    );
    expect(evaluateRequest(request('dynamodb:GetItem', TABLE, { 'dynamodb:LeadingKeys': ['JOB#1', 'BATCH#2'] }), statements).decision).toBe(
      'implicit-deny',
    );
    // As on AWS, ForAllValues holds when the request has no value for the key (a Scan): why grants never name Scan.
    expect(evaluateRequest(request('dynamodb:GetItem', TABLE), statements).decision).toBe('allow');
    expect(evaluateRequest(request('dynamodb:GetItem', TABLE, { 'dynamodb:LeadingKeys': ['JOB'] }), [leading(['JOB#?'])]).decision).toBe(
      'implicit-deny',
    );
  });

  it('lets an explicit Deny win over any Allow, and reads Bool aws:SecureTransport as TLS', () => {
    const allow: PolicyStatement = { Effect: 'Allow', Action: 's3:*', Resource: '*' };
    const tlsOnly: PolicyStatement = {
      Effect: 'Deny',
      Principal: { AWS: '*' },
      Action: 's3:*',
      Resource: 'arn:aws:s3:::files/*',
      Condition: { Bool: { 'aws:SecureTransport': 'false' } },
    };
    expect(evaluateRequest(request('s3:PutObject', 'arn:aws:s3:::files/a'), [allow], [tlsOnly]).decision).toBe('allow');
    const plain = { action: 's3:PutObject', resource: 'arn:aws:s3:::files/a', context: { 'aws:SecureTransport': ['false'] } };
    expect(evaluateRequest(plain, [allow], [tlsOnly])).toEqual({ decision: 'explicit-deny', statement: tlsOnly });
    // A resource policy statement for another principal does not apply to the function's role.
    expect(evaluateRequest(plain, [allow], [{ ...tlsOnly, Principal: { AWS: 'arn:aws:iam::1:role/other' } }]).decision).toBe('allow');
  });

  it('honours NotAction, NotResource, IfExists and ForAnyValue, and refuses an operator it does not know', () => {
    expect(evaluateRequest(request('sqs:SendMessage', 'q'), [{ Effect: 'Allow', NotAction: 'sqs:Delete*', Resource: '*' }]).decision).toBe(
      'allow',
    );
    expect(evaluateRequest(request('sqs:DeleteQueue', 'q'), [{ Effect: 'Allow', NotAction: 'sqs:Delete*', Resource: '*' }]).decision).toBe(
      'implicit-deny',
    );
    expect(evaluateRequest(request('sqs:SendMessage', 'q2'), [{ Effect: 'Allow', Action: '*', NotResource: 'q1' }]).decision).toBe('allow');
    const ifExists: PolicyStatement = {
      Effect: 'Allow',
      Action: '*',
      Resource: '*',
      Condition: { StringEqualsIfExists: { 's3:prefix': 'usage/' } },
    };
    expect(evaluateRequest(request('s3:ListBucket', 'b'), [ifExists]).decision).toBe('allow');
    expect(evaluateRequest(request('s3:ListBucket', 'b', { 's3:prefix': ['files/'] }), [ifExists]).decision).toBe('implicit-deny');
    const any: PolicyStatement = { Effect: 'Allow', Action: '*', Resource: '*', Condition: { 'ForAnyValue:StringEquals': { k: ['a'] } } };
    expect(evaluateRequest(request('x:Y', 'r', { k: ['b', 'a'] }), [any]).decision).toBe('allow');
    expect(evaluateRequest(request('x:Y', 'r'), [any]).decision).toBe('implicit-deny');
    expect(() =>
      evaluateRequest(request('x:Y', 'r'), [
        { Effect: 'Allow', Action: '*', Resource: '*', Condition: { DateGreaterThan: { 'aws:CurrentTime': '2020' } } },
      ]),
    ).toThrow(/not supported/);
  });
});

const call = (service: RecordedCall['service'], command: string, input: Record<string, unknown>): RecordedCall => ({
  lambda: 'api',
  service,
  command,
  input,
});
const actions = (requests: IamRequest[]) =>
  requests.map(
    (r) => `${r.action} ${r.resource}${r.context['dynamodb:LeadingKeys'] ? ` ${r.context['dynamodb:LeadingKeys'].join(',')}` : ''}`,
  );
const pk = () => 'pk';

describe('iamRequestsOf: SDK commands as the IAM requests AWS authorizes', () => {
  it('maps S3 commands to their actions: per key for DeleteObjects, GetObject for HeadObject, PutObject for multipart', () => {
    const b = 'arn:aws:s3:::files';
    expect(actions(iamRequestsOf(call('s3', 'HeadObject', { Bucket: 'files', Key: 'files/a' }), pk))).toEqual([
      `s3:GetObject ${b}/files/a`,
    ]);
    expect(actions(iamRequestsOf(call('s3', 'GetObject', { Bucket: 'files', Key: 'files/a', VersionId: 'v1' }), pk))).toEqual([
      `s3:GetObjectVersion ${b}/files/a`,
    ]);
    for (const command of ['CreateMultipartUpload', 'UploadPart', 'CompleteMultipartUpload', 'PutObject']) {
      expect(actions(iamRequestsOf(call('s3', command, { Bucket: 'files', Key: 'files/a' }), pk))).toEqual([`s3:PutObject ${b}/files/a`]);
    }
    expect(
      actions(
        iamRequestsOf(
          call('s3', 'DeleteObjects', { Bucket: 'files', Delete: { Objects: [{ Key: 'usage/k/a' }, { Key: 'files/a', VersionId: 'v' }] } }),
          pk,
        ),
      ),
    ).toEqual([`s3:DeleteObject ${b}/usage/k/a`, `s3:DeleteObjectVersion ${b}/files/a`]);
    expect(actions(iamRequestsOf(call('s3', 'ListObjectsV2', { Bucket: 'files', Prefix: 'owners/k/' }), pk))).toEqual([
      `s3:ListBucket ${b}`,
    ]);
    expect(() => iamRequestsOf(call('s3', 'PutBucketPolicy', { Bucket: 'files' }), pk)).toThrow(/no IAM mapping/);
  });

  it('maps SQS batch commands to their single actions on the queue URL as an ARN', () => {
    const url = 'http://127.0.0.1:5000/123456789012/chunks';
    expect(actions(iamRequestsOf(call('sqs', 'SendMessageBatch', { QueueUrl: url }), pk))).toEqual([
      'sqs:SendMessage arn:aws:sqs:us-east-1:123456789012:chunks',
    ]);
    expect(actions(iamRequestsOf(call('sqs', 'DeleteMessageBatch', { QueueUrl: url }), pk))).toEqual([
      'sqs:DeleteMessage arn:aws:sqs:us-east-1:123456789012:chunks',
    ]);
  });

  it('computes DynamoDB leading keys from Key, Item, the key condition and each transaction or batch item', () => {
    const s = (value: string) => ({ S: value });
    expect(actions(iamRequestsOf(call('dynamodb', 'GetItem', { TableName: 'jobs', Key: { pk: s('JOB#1'), sk: s('META') } }), pk))).toEqual([
      `dynamodb:GetItem ${TABLE} JOB#1`,
    ]);
    expect(
      actions(iamRequestsOf(call('dynamodb', 'PutItem', { TableName: 'jobs', Item: { pk: s('BATCH#2'), sk: s('META') } }), pk)),
    ).toEqual([`dynamodb:PutItem ${TABLE} BATCH#2`]);
    const query = {
      TableName: 'jobs',
      KeyConditionExpression: '#p = :p AND begins_with(sk, :s)',
      ExpressionAttributeNames: { '#p': 'pk' },
      ExpressionAttributeValues: { ':p': s('BATCHES#k'), ':s': s('B') },
    };
    expect(actions(iamRequestsOf(call('dynamodb', 'Query', query), pk))).toEqual([`dynamodb:Query ${TABLE} BATCHES#k`]);
    const transaction = {
      TransactItems: [
        { Put: { TableName: 'jobs', Item: { pk: s('UPLOAD#u'), sk: s('META') } } },
        { Delete: { TableName: 'jobs', Key: { pk: s('UPLOADS_PENDING#k'), sk: s('u') } } },
        { ConditionCheck: { TableName: 'jobs', Key: { pk: s('SLOTS#k'), sk: s('S') } } },
      ],
    };
    expect(actions(iamRequestsOf(call('dynamodb', 'TransactWriteItems', transaction), pk))).toEqual([
      `dynamodb:PutItem ${TABLE} UPLOAD#u`,
      `dynamodb:DeleteItem ${TABLE} UPLOADS_PENDING#k`,
      `dynamodb:ConditionCheckItem ${TABLE} SLOTS#k`,
    ]);
    const batch = {
      RequestItems: { jobs: [{ PutRequest: { Item: { pk: s('BATCH#1') } } }, { DeleteRequest: { Key: { pk: s('BATCH#2') } } }] },
    };
    expect(actions(iamRequestsOf(call('dynamodb', 'BatchWriteItem', batch), pk))).toEqual([
      `dynamodb:BatchWriteItem ${TABLE} BATCH#1,BATCH#2`,
    ]);
    expect(
      actions(
        iamRequestsOf(
          call('dynamodb', 'BatchGetItem', { RequestItems: { jobs: { Keys: [{ pk: s('BATCH#1') }, { pk: s('BATCH#1') }] } } }),
          pk,
        ),
      ),
    ).toEqual([`dynamodb:BatchGetItem ${TABLE} BATCH#1`]);
    expect(() =>
      iamRequestsOf(
        call('dynamodb', 'Query', { TableName: 'jobs', KeyConditionExpression: 'sk = :s', ExpressionAttributeValues: { ':s': s('x') } }),
        pk,
      ),
    ).toThrow(/without an equality/);
  });
});
