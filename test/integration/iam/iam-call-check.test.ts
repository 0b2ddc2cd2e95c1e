import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  APIGatewayRequestAuthorizerEventV2,
  Context,
  ScheduledEvent,
  SQSEvent,
} from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbApiKeyStore } from '../../../shared/adapters/dynamodb/keys/dynamodb-api-key-store.js';
import { FIXTURE_MODEL_SPEC } from '../../../shared/config/service-config.js';
import { localLambdaContext } from '../../../shared/http/node-http-adapter.js';
import { startLocalAwsStack, type LocalAwsStack } from '../../../scripts/emulators/local-aws-stack.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import {
  asLambda,
  clearRecordedCalls,
  installAwsCallRecorder,
  recordedCalls,
  type RecordedCall,
} from '../../support/iam/aws-call-recorder.js';
import { appendCoverage, checkCalls, synthesizedTemplate } from '../../support/iam/check-recorded-calls.js';
import type { TemplateJson } from '../../support/iam/template-roles.js';

/**
 * The IAM check itself, on a real flow: the API handler stores, lists, serves (a presigned URL) and deletes a file on
 * moto's S3 with a key looked up in DynamoDB Local, and the edge authorizer checks that key. Every call is allowed by
 * the synthesized template; the same calls against the template with `usage/*` or `derived-due/*` taken out of the files grant, or with
 * a LeadingKeys condition narrowed, are denied - which is what makes the emulator suites' afterAll checks worth having.
 */
let stack: LocalAwsStack;
let key: string;
let api: (event: APIGatewayProxyEventV2, context: ReturnType<typeof localLambdaContext>) => Promise<APIGatewayProxyStructuredResultV2>;
let authorizer: (event: APIGatewayRequestAuthorizerEventV2) => Promise<{ isAuthorized: boolean }>;
let batchWorker: (event: SQSEvent | ScheduledEvent, context: Context) => Promise<unknown>;
let batchDeadLetter: (event: SQSEvent, context: Context) => Promise<unknown>;
let flowCalls: readonly RecordedCall[];

function multipartFile(name: string, content: string): { body: string; contentType: string } {
  const boundary = 'iamcheck';
  const form = Buffer.concat([
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="purpose"\r\n\r\nbatch\r\n`),
    Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${name}"\r\ncontent-type: application/jsonl\r\n\r\n`,
    ),
    Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body: form.toString('base64'), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function call(method: string, path: string, init: { json?: unknown; form?: { body: string; contentType: string } } = {}) {
  const headers = { authorization: `Bearer ${key}`, ...(init.form === undefined ? {} : { 'content-type': init.form.contentType }) };
  const event = apiGatewayEvent({ method, path, headers, ...(init.json === undefined ? {} : { json: init.json }) });
  const result = await api(
    init.form === undefined ? event : { ...event, body: init.form.body, isBase64Encoded: true },
    localLambdaContext(),
  );
  return {
    status: result.statusCode ?? 0,
    body: JSON.parse(result.body ?? 'null') as Record<string, unknown>,
    headers: result.headers ?? {},
  };
}

/** A copy of the template with `edit` applied to every policy statement of every role. */
function editStatements(template: TemplateJson, edit: (statement: Record<string, unknown>) => void): TemplateJson {
  const copy = structuredClone(template) as TemplateJson;
  for (const resource of Object.values(copy.Resources)) {
    if (resource.Type !== 'AWS::IAM::Policy') continue;
    for (const statement of (resource.Properties?.['PolicyDocument'] as { Statement: Record<string, unknown>[] }).Statement)
      edit(statement);
  }
  return copy;
}

beforeAll(async () => {
  installAwsCallRecorder();
  stack = await startLocalAwsStack();
  // No RERANK_API_KEYS: keys live in the table, so the API and the authorizer look them up there.
  Object.assign(process.env, stack.env, { RERANK_MODELS: FIXTURE_MODEL_SPEC });
  delete process.env['RERANK_API_KEYS'];
  key = (await new DynamoDbApiKeyStore(stack.tableName, stack.dynamodb).create('iam-check')).key;
  const { handler: apiHandler } = await import('../../../functions/api/handler.js');
  const { handler: authorizerHandler } = await import('../../../functions/authorizer/handler.js');
  const { handler: taskWorkerHandler } = await import('../../../functions/workers/task-worker.js');
  const { handler: deadLetterHandler } = await import('../../../functions/workers/dead-letter.js');
  batchWorker = asLambda('batchWorker', taskWorkerHandler as (event: SQSEvent | ScheduledEvent, context: Context) => Promise<unknown>);
  batchDeadLetter = asLambda('batchDeadLetter', deadLetterHandler);
  api = asLambda('api', apiHandler);
  authorizer = asLambda('authorizer', authorizerHandler);

  clearRecordedCalls();
  const event = { headers: { authorization: `Bearer ${key}` } } as unknown as APIGatewayRequestAuthorizerEventV2;
  expect(await authorizer(event)).toMatchObject({ isAuthorized: true });
  const created = await call('POST', '/v1/files', { form: multipartFile('in.jsonl', '{"custom_id":"a"}\n') });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = String(created.body['id']);
  expect((await call('GET', '/v1/files?limit=1')).body['data']).toEqual([expect.objectContaining({ id })]);
  expect((await call('GET', `/v1/files/${id}/content`)).status).toBe(302);
  // A batch whose plan task is dead-lettered (the batch DLQ's consumer), then the expiry schedule's run.
  const batch = await call('POST', '/v1/batches', { json: { input_file_id: id, endpoint: '/v1/rerank', completion_window: '24h' } });
  expect(batch.status, JSON.stringify(batch.body)).toBe(200);
  const batchId = String(batch.body['id']);
  const record = {
    messageId: 'm1',
    receiptHandle: 'r1',
    body: JSON.stringify({ kind: 'plan', batchId }),
    attributes: {},
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:123456789012:batch-dlq',
    awsRegion: 'us-east-1',
  };
  expect(await batchDeadLetter({ Records: [record] } as unknown as SQSEvent, localLambdaContext())).toEqual({ batchItemFailures: [] });
  expect((await call('GET', `/v1/batches/${batchId}`)).body['status']).toBe('failed');
  expect((await call('GET', '/v1/batches')).status).toBe(200);
  expect((await call('DELETE', `/v1/files/${id}`)).body).toMatchObject({ deleted: true });
  // The schedule's run after the delete settles the file's due key (its derived objects' expiry sweep).
  const scheduled = { source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} } as unknown as ScheduledEvent;
  expect(await batchWorker(scheduled, localLambdaContext())).toEqual({ expired: 0, filesSwept: 1 });
  flowCalls = [...recordedCalls()];
});

afterAll(async () => {
  await stack?.stop();
});

describe('the IAM check of recorded AWS calls against the synthesized template', () => {
  it('allows every call the API, the batch worker, the batch dead-letter consumer and the authorizer made, and covers the file, key, batch and dead-letter calls', () => {
    const report = appendCoverage(checkCalls(flowCalls, synthesizedTemplate(), stack.env));
    expect(report.denials).toEqual([]);
    expect(report.coverage).toEqual(
      expect.arrayContaining([
        'api s3:PutObject',
        'api s3:GetObject',
        'api s3:ListBucket',
        'api s3:DeleteObject',
        'api dynamodb:GetItem',
        'api dynamodb:Query',
        'authorizer dynamodb:GetItem',
        'batchWorker dynamodb:Query',
        'batchDeadLetter dynamodb:GetItem',
        'batchDeadLetter dynamodb:UpdateItem',
        'batchDeadLetter dynamodb:PutItem',
        'batchDeadLetter dynamodb:DeleteItem',
        'batchWorker s3:GetObject',
        'batchWorker s3:ListBucket',
        'batchWorker s3:DeleteObject',
        'api sqs:SendMessage',
      ]),
    );
  });

  it('fails when usage/* is taken out of the files grant: the usage object write and delete are denied', () => {
    const withoutUsage = editStatements(synthesizedTemplate(), (statement) => {
      if (Array.isArray(statement['Resource']))
        statement['Resource'] = statement['Resource'].filter((r) => !JSON.stringify(r).includes('/usage/*'));
    });
    const denials = checkCalls(flowCalls, withoutUsage, stack.env).denials;
    expect(denials).toEqual([
      expect.stringMatching(/^api: s3:DeleteObject on arn:aws:s3:::rerank-files-[0-9a-f]+\/usage\/.* \(DeleteObjects, implicit-deny\)$/),
      expect.stringMatching(/^api: s3:PutObject on arn:aws:s3:::rerank-files-[0-9a-f]+\/usage\/.* \(PutObject, implicit-deny\)$/),
    ]);
  });

  it('fails when derived-due/* is taken out of the files grant: the due key write and the sweep that settles it are denied', () => {
    const withoutDue = editStatements(synthesizedTemplate(), (statement) => {
      if (Array.isArray(statement['Resource']))
        statement['Resource'] = statement['Resource'].filter((r) => !JSON.stringify(r).includes('/derived-due/*'));
    });
    const denials = checkCalls(flowCalls, withoutDue, stack.env).denials;
    expect(denials).toEqual([
      expect.stringMatching(
        /^api: s3:PutObject on arn:aws:s3:::rerank-files-[0-9a-f]+\/derived-due\/\d+-file-[0-9a-f]+ \(PutObject, implicit-deny\)$/,
      ),
      expect.stringMatching(
        /^batchWorker: s3:DeleteObject on arn:aws:s3:::rerank-files-[0-9a-f]+\/derived-due\/\d+-file-[0-9a-f]+ \(DeleteObjects, implicit-deny\)$/,
      ),
    ]);
  });

  it('fails when a LeadingKeys condition is narrowed: the calls on the partitions it no longer covers are denied', () => {
    // The key's partition (KEY#<digest>) as the API and the authorizer read it; the narrowed pattern admits only
    // digests starting with another character.
    const keyPartition = /"(KEY#[0-9a-f]+)"/.exec(JSON.stringify(flowCalls.filter((c) => c.command === 'GetItem')))?.[1];
    expect(keyPartition).toBeDefined();
    const other = keyPartition!.charAt(4) === '0' ? '1' : '0';
    const narrowed = editStatements(synthesizedTemplate(), (statement) => {
      const condition = statement['Condition'] as Record<string, Record<string, string | string[]>> | undefined;
      const leading = condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
      if (leading !== undefined)
        condition!['ForAllValues:StringLike']!['dynamodb:LeadingKeys'] = [leading].flat().map((p) => (p === 'KEY#*' ? `KEY#${other}*` : p));
    });
    const denials = checkCalls(flowCalls, narrowed, stack.env).denials;
    expect(denials).toEqual([
      `api: dynamodb:GetItem on ${`arn:aws:dynamodb:us-east-1:123456789012:table/${stack.tableName}`} LeadingKeys ["${keyPartition}"] (GetItem, implicit-deny)`,
      `authorizer: dynamodb:GetItem on ${`arn:aws:dynamodb:us-east-1:123456789012:table/${stack.tableName}`} LeadingKeys ["${keyPartition}"] (GetItem, implicit-deny)`,
    ]);
  });

  it('evaluates the files bucket policy: its TLS-only deny does not block calls made over TLS', () => {
    const bucketPolicies = Object.values(synthesizedTemplate().Resources).filter((r) => r.Type === 'AWS::S3::BucketPolicy');
    expect(JSON.stringify(bucketPolicies)).toContain('aws:SecureTransport');
    // Turn the deny into one that always matches: every S3 call is then denied explicitly.
    const template = structuredClone(synthesizedTemplate());
    for (const policy of Object.values(template.Resources).filter((r) => r.Type === 'AWS::S3::BucketPolicy')) {
      for (const statement of (policy.Properties?.['PolicyDocument'] as { Statement: Record<string, unknown>[] }).Statement)
        statement['Condition'] = { Bool: { 'aws:SecureTransport': 'true' } };
    }
    const denials = checkCalls(flowCalls, template, stack.env).denials;
    expect(denials.length).toBeGreaterThan(0);
    expect(denials.every((d) => d.includes(' s3:') && d.endsWith('explicit-deny)'))).toBe(true);
  });
});
