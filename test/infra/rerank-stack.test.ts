import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_TABLE_PARTITION_KEY, JOB_TABLE_SORT_KEY, JOB_TABLE_TTL_ATTRIBUTE } from '../../shared/adapters/dynamodb/job-table-keys.js';
import { KEY_LIST_PK } from '../../shared/adapters/dynamodb/keys/key-table-keys.js';
import { counterShardPk } from '../../shared/adapters/dynamodb/batch-table-keys.js';
import { S3_FILE_KEY_PREFIXES } from '../../shared/adapters/s3/s3-file-keys.js';
import { jobLedgerOwner } from '../../shared/engine/chunk-ledger.js';
import { API_ROUTES, gatewayPath } from '../../shared/http/api-routes.js';
import { listFiles, PROJECT_ROOT, removeScratchDirs, synthRerankStack, type SynthResult } from './support/synth-rerank.js';

// One synth of the cdk.json configuration without bundling (the packaging tests build the bundles).
let synth: SynthResult;
let template: Template;

type Resource = { Type: string; Properties: Record<string, unknown> };
type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: Record<string, Record<string, unknown>> };

const resources = (type: string): [string, Resource][] => Object.entries(template.findResources(type) as Record<string, Resource>);

const logicalId = (type: string, pathFragment: string): string => {
  const hits = resources(type).filter(([id]) => id.startsWith(pathFragment));
  expect(hits, `one ${type} named ${pathFragment}*`).toHaveLength(1);
  return hits[0]![0];
};

type FunctionName = 'Api' | 'Worker' | 'DeadLetter' | 'BatchWorker' | 'BatchDeadLetter';
const functionId = (name: FunctionName): string => logicalId('AWS::Lambda::Function', `${name}Function`);
const roleId = (name: FunctionName | 'EdgeAuth'): string => logicalId('AWS::IAM::Role', `${name}Role`);

/** Every statement granted to a role, from the policies attached to it. */
function statementsOf(role: string): Statement[] {
  return resources('AWS::IAM::Policy')
    .filter(([, policy]) => JSON.stringify(policy.Properties['Roles']).includes(`"${role}"`))
    .flatMap(([, policy]) => (policy.Properties['PolicyDocument'] as { Statement: Statement[] }).Statement);
}

const actionsOf = (statement: Statement): string[] => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]);
const refersTo = (statement: Statement, id: string): boolean => JSON.stringify(statement.Resource).includes(`"${id}"`);
const allActions = (role: string): string[] => [...new Set(statementsOf(role).flatMap(actionsOf))].sort();

/** A role's DynamoDB grants as partition pattern -> item actions (without the `dynamodb:` prefix), from its conditions. */
function tableGrants(role: string): Record<string, string[]> {
  const grants: Record<string, Set<string>> = {};
  for (const statement of statementsOf(role)) {
    const actions = actionsOf(statement).filter((a) => a.startsWith('dynamodb:'));
    if (actions.length === 0) continue;
    const leading = statement.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
    expect(leading, `${role}: every DynamoDB statement names its partitions`).toBeDefined();
    for (const pattern of Array.isArray(leading) ? (leading as string[]) : [leading as string]) {
      for (const action of actions) (grants[pattern] ??= new Set()).add(action.slice('dynamodb:'.length));
    }
  }
  return Object.fromEntries(Object.entries(grants).map(([pattern, actions]) => [pattern, [...actions].sort()]));
}

/** IAM StringLike: `*` any run of characters, `?` one character. */
const globMatches = (pattern: string, value: string): boolean =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  ).test(value);

beforeAll(() => {
  synth = synthRerankStack({ bundle: false });
  template = synth.template;
});

afterAll(removeScratchDirs);

describe('functions', () => {
  it('runs five Node 24 arm64 scoring functions with the handlers the local server runs, traced by X-Ray', () => {
    for (const name of ['Api', 'Worker', 'DeadLetter', 'BatchWorker', 'BatchDeadLetter'] as const) {
      expect(template.toJSON().Resources[functionId(name)].Properties).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        TracingConfig: { Mode: 'Active' },
      });
    }
  });

  it('reserves concurrency for every function, so no flood can take the account pool (or starve the workers)', () => {
    const reserved = (name: string) =>
      template.toJSON().Resources[logicalId('AWS::Lambda::Function', name)].Properties.ReservedConcurrentExecutions;
    // cdk.json: API 200 = 20 rps x 10 s job wait; worker 10 = its event source maximum; authorizer 20; each dead-letter
    // consumer 2 = its event source maximum; the batch worker its event source maximum (10).
    expect(
      ['Api', 'Worker', 'DeadLetter', 'BatchWorker', 'BatchDeadLetter', 'EdgeAuth'].map((name) => reserved(`${name}Function`)),
    ).toEqual([200, 10, 2, 10, 2, 20]);
  });

  it('has the outputs the deploy guide lists, and no others', () => {
    const guide = readFileSync(path.join(PROJECT_ROOT, 'docs/deploy-aws.md'), 'utf8');
    const listed =
      /Stack outputs: ([^.]+)\./
        .exec(guide)?.[1]
        ?.match(/`(\w+)`/g)
        ?.map((name) => name.slice(1, -1)) ?? [];
    expect(listed.sort()).toEqual(Object.keys(template.toJSON().Outputs as Record<string, unknown>).sort());
  });

  it('reserves what the deploy guide tells an account to allow (its total plus the 100 AWS keeps unreserved)', () => {
    const total = resources('AWS::Lambda::Function').reduce(
      (sum, [, fn]) => sum + Number(fn.Properties['ReservedConcurrentExecutions'] ?? 0),
      0,
    );
    const guide = readFileSync(path.join(PROJECT_ROOT, 'docs/deploy-aws.md'), 'utf8');
    const stated = /the stack reserves (\d+) concurrent executions[\s\S]*?must be at least (\d+)/.exec(guide);
    expect(stated?.slice(1).map(Number)).toEqual([total, total + 100]);
  });

  it('sizes the API below the HTTP API 30 s limit and waits for jobs less than that', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('^Rerank API'),
      MemorySize: 3008,
      Timeout: 29,
      Environment: {
        Variables: Match.objectLike({
          RERANK_JOBS_BACKEND: 'aws',
          RERANK_JOB_WAIT_MS: '10000',
          RERANK_SYNC_MAX_DOCUMENTS: '256',
          RERANK_DEFAULT_BATCH_SIZE: '64',
          RERANK_JOB_TTL_SECONDS: '86400',
          RERANK_MAX_MESSAGE_BYTES: '1048576',
          // What npm start serves, folders inside the bundle: no override, no random-weight fixture as the default.
          RERANK_MODELS:
            'use-lite-bm25=hybrid:use-lite+bm25,use-lite=models/use-lite,bm25=lexical,tinybert-l2-fixture=models/tinybert-l2-fixture',
          // 3008 MB is 1.7 vCPU: two intra-op threads.
          RERANK_THREADS: '2',
          RERANK_JOBS_TABLE: { Ref: Match.stringLikeRegexp('^JobsTable') },
          RERANK_CHUNK_QUEUE_URL: { Ref: Match.stringLikeRegexp('^ChunksQueue') },
          // Defaults for keys created without their own limits (cdk.json).
          RERANK_RATE_LIMIT_PER_MINUTE: '600',
          RERANK_MAX_CONCURRENT_JOBS: '20',
        }),
      },
    });
  });

  it('gives the worker its memory, timeout and threads, and the dead-letter consumer the job settings', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('^Rerank worker'),
      MemorySize: 3008,
      Timeout: 60,
      Environment: { Variables: Match.objectLike({ RERANK_THREADS: '2', RERANK_JOBS_BACKEND: 'aws' }) },
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('^Rerank dead-letter'),
      MemorySize: 1024,
      Timeout: 30,
      Environment: { Variables: Match.objectLike({ RERANK_THREADS: '1', RERANK_JOBS_BACKEND: 'aws' }) },
    });
  });

  it('gives the batch worker a planning slice of a third of its timeout, so planning hands over before the timeout', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('^Rerank batch worker'),
      Timeout: 900,
      Environment: { Variables: Match.objectLike({ RERANK_BATCH_PLAN_SLICE_SECONDS: '300', RERANK_JOBS_BACKEND: 'aws' }) },
    });
  });

  it('never puts a Bearer key in the template: keys live hashed in the jobs table, not in env or Secrets Manager', () => {
    for (const [, fn] of resources('AWS::Lambda::Function')) {
      const variables = (fn.Properties['Environment'] as { Variables: Record<string, unknown> }).Variables;
      expect(variables).not.toHaveProperty('RERANK_API_KEYS');
      expect(variables).not.toHaveProperty('RERANK_API_KEYS_SECRET_ARN');
      // No upstream host is allowed unless the deployer names some.
      expect(variables).not.toHaveProperty('RERANK_UPSTREAM_ALLOWED_HOSTS');
    }
    expect(JSON.stringify(template.toJSON())).not.toMatch(/SecretsManager|secretsmanager/);
  });

  it('keeps each function in its own log group with retention', () => {
    template.resourceCountIs('AWS::Logs::LogGroup', 7);
    template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
    for (const name of ['Api', 'Worker', 'DeadLetter', 'BatchWorker', 'BatchDeadLetter'] as const) {
      expect(template.toJSON().Resources[functionId(name)].Properties.LoggingConfig).toEqual({
        LogGroup: { Ref: logicalId('AWS::Logs::LogGroup', `${name}Logs`) },
      });
    }
  });
});

describe('queues and event sources', () => {
  it('has a chunk queue with a 1 MiB maximum, TLS only, redriving to its DLQ after 3 receives', () => {
    const dlq = logicalId('AWS::SQS::Queue', 'ChunksDeadLetterQueue');
    template.hasResourceProperties('AWS::SQS::Queue', {
      MaximumMessageSize: 1_048_576,
      // Six times the worker's 60 s timeout, as AWS advises for SQS event sources.
      VisibilityTimeout: 360,
      MessageRetentionPeriod: 86_400,
      SqsManagedSseEnabled: true,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] }, maxReceiveCount: 3 },
    });
    template.hasResourceProperties('AWS::SQS::Queue', {
      MaximumMessageSize: 1_048_576,
      VisibilityTimeout: 180,
      MessageRetentionPeriod: 1_209_600,
      SqsManagedSseEnabled: true,
    });
    // Chunk queue + DLQ and batch task queue + DLQ: every one TLS only.
    template.resourceCountIs('AWS::SQS::QueuePolicy', 4);
    template.allResourcesProperties('AWS::SQS::QueuePolicy', {
      PolicyDocument: {
        Statement: [Match.objectLike({ Effect: 'Deny', Action: 'sqs:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })],
      },
    });
  });

  it('feeds the worker from the chunk queue with batch size, window, maximum concurrency and partial failures', () => {
    // Through the alias (`<function>:live`): a CodeDeploy rollout shifts chunks to the new version with the API.
    const queue = logicalId('AWS::SQS::Queue', 'ChunksQueue');
    const [, mapping] = resources('AWS::Lambda::EventSourceMapping').find(([, m]) =>
      JSON.stringify(m.Properties['EventSourceArn']).includes(`"${queue}"`),
    )!;
    expect(JSON.stringify(mapping.Properties['FunctionName'])).toMatch(
      new RegExp(`"${logicalId('AWS::Lambda::Alias', 'WorkerAlias')}".*:live`),
    );
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [logicalId('AWS::SQS::Queue', 'ChunksQueue'), 'Arn'] },
      BatchSize: 1,
      MaximumBatchingWindowInSeconds: 0,
      ScalingConfig: { MaximumConcurrency: 10 },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it("feeds the batch worker from its task queue (one task per invocation) and the batch dead-letter consumer from that queue's DLQ, with partial failures", () => {
    for (const [fn, queue, batchSize, concurrency] of [
      ['BatchWorker', 'BatchTasksQueue', 1, 10],
      ['BatchDeadLetter', 'BatchTasksDeadLetterQueue', 10, 2],
    ] as const) {
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: { Ref: functionId(fn) },
        EventSourceArn: { 'Fn::GetAtt': [logicalId('AWS::SQS::Queue', queue), 'Arn'] },
        BatchSize: batchSize,
        ScalingConfig: { MaximumConcurrency: concurrency },
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
    }
    // A plan or finalize task streams a whole file: the queue hides a task for six of the worker's 900 s timeouts.
    template.hasResourceProperties('AWS::SQS::Queue', {
      VisibilityTimeout: 5400,
      MessageRetentionPeriod: 86_400,
      SqsManagedSseEnabled: true,
    });
    // The batch DLQ's recovery may finish a task's lines: it gets the batch worker's timeout and memory.
    for (const fn of ['BatchWorker', 'BatchDeadLetter'] as const)
      expect(template.toJSON().Resources[functionId(fn)].Properties, fn).toMatchObject({ Timeout: 900, MemorySize: 3008 });
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(5 minutes)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [functionId('BatchWorker'), 'Arn'] } })],
    });
  });

  it('feeds the dead-letter consumer from the DLQ with partial failures', () => {
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', 4);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: functionId('DeadLetter') },
      EventSourceArn: { 'Fn::GetAtt': [logicalId('AWS::SQS::Queue', 'ChunksDeadLetterQueue'), 'Arn'] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });
});

describe('files bucket', () => {
  it('is private, encrypted, TLS only, versioned, access-logged and expires files after the documented retention', () => {
    const bucket = logicalId('AWS::S3::Bucket', 'FilesBucket');
    const props = template.toJSON().Resources[bucket].Properties;
    expect(props.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(props.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe('AES256');
    expect(props.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(props.LoggingConfiguration.DestinationBucketName).toEqual({ Ref: logicalId('AWS::S3::Bucket', 'FilesAccessLogs') });
    expect(props.LifecycleConfiguration.Rules).toEqual([
      expect.objectContaining({
        ExpirationInDays: 30,
        NoncurrentVersionExpiration: { NoncurrentDays: 1 },
        AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
        Status: 'Enabled',
      }),
    ]);
    // enforceSSL: a bucket policy denies every request without TLS.
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: bucket },
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      },
    });
  });

  it('tells every function where the files are and how long they are kept', () => {
    const bucket = logicalId('AWS::S3::Bucket', 'FilesBucket');
    for (const name of ['Api', 'Worker', 'DeadLetter'] as const) {
      const env = template.toJSON().Resources[functionId(name)].Properties.Environment.Variables;
      expect(env.RERANK_FILES_BUCKET, name).toEqual({ Ref: bucket });
      expect(env.RERANK_FILE_RETENTION_DAYS, name).toBe('30');
    }
  });
});

describe('jobs table', () => {
  it('uses the adapter key schema and TTL attribute, on demand', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: JOB_TABLE_PARTITION_KEY, KeyType: 'HASH' },
        { AttributeName: JOB_TABLE_SORT_KEY, KeyType: 'RANGE' },
      ],
      AttributeDefinitions: [
        { AttributeName: JOB_TABLE_PARTITION_KEY, AttributeType: 'S' },
        { AttributeName: JOB_TABLE_SORT_KEY, AttributeType: 'S' },
      ],
      TimeToLiveSpecification: { AttributeName: JOB_TABLE_TTL_ATTRIBUTE, Enabled: true },
    });
  });

  it('outlives the stack by default (it holds the API keys), with point-in-time recovery', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }),
    });
  });
});

describe('least-privilege IAM', () => {
  it('lets each function assume only its own role, with no managed policies (no logs:* on "*")', () => {
    const lambdaRoles = resources('AWS::IAM::Role').filter(([, role]) =>
      JSON.stringify(role.Properties['AssumeRolePolicyDocument']).includes('lambda.amazonaws.com'),
    );
    expect(lambdaRoles).toHaveLength(6);
    for (const [, role] of lambdaRoles) {
      expect(role.Properties['ManagedPolicyArns']).toBeUndefined();
      expect(role.Properties['AssumeRolePolicyDocument']).toMatchObject({
        Statement: [{ Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' } }],
      });
    }
    const names = ['Api', 'Worker', 'DeadLetter', 'BatchWorker', 'BatchDeadLetter'] as const;
    const roleRefs = names.map((n) => template.toJSON().Resources[functionId(n)].Properties.Role);
    expect(new Set(roleRefs.map((r) => JSON.stringify(r))).size).toBe(names.length);
  });

  it("grants no wildcard resource (but X-Ray's, which has no resource ARNs) and no wildcard action anywhere", () => {
    for (const [id, policy] of resources('AWS::IAM::Policy')) {
      for (const statement of (policy.Properties['PolicyDocument'] as { Statement: Statement[] }).Statement) {
        expect(statement.Effect, id).toBe('Allow');
        if (statement.Resource === '*')
          expect(actionsOf(statement).sort(), id).toEqual(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
        else expect(JSON.stringify(statement.Resource), id).not.toMatch(/^"\*"$|"\*"[,\]]/);
        for (const action of actionsOf(statement)) expect(action, id).not.toMatch(/\*/);
      }
    }
  });

  it('API: table items by partition, send-only on the chunk queue, its log group', () => {
    const api = roleId('Api');
    expect(allActions(api)).toEqual(
      [
        'dynamodb:BatchGetItem',
        'dynamodb:DeleteItem',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:Query',
        'dynamodb:UpdateItem',
        'logs:CreateLogStream',
        'logs:PutLogEvents',
        's3:AbortMultipartUpload',
        's3:DeleteObject',
        's3:GetObject',
        's3:GetObjectVersion',
        's3:ListBucket',
        's3:PutObject',
        'sqs:SendMessage',
        'xray:PutTelemetryRecords',
        'xray:PutTraceSegments',
      ].sort(),
    );
    // Object actions only on the FileStore's prefixes of the files bucket; listing on that bucket alone.
    const bucket = logicalId('AWS::S3::Bucket', 'FilesBucket');
    const s3Statements = statementsOf(api).filter((st) => actionsOf(st).some((a) => a.startsWith('s3:')));
    expect(s3Statements.every((st) => refersTo(st, bucket))).toBe(true);
    const objectResources = JSON.stringify(s3Statements.find((st) => actionsOf(st).includes('s3:PutObject'))!.Resource);
    // Every prefix the S3 FileStore writes: the grant is built from its list (usage/ was once missing).
    for (const prefix of S3_FILE_KEY_PREFIXES) expect(objectResources).toContain(`/${prefix}*`);
    expect(S3_FILE_KEY_PREFIXES).toEqual(['files/', 'owners/', 'usage/', 'derived/', 'derived-due/']);
    expect(JSON.stringify(s3Statements.find((st) => actionsOf(st).includes('s3:ListBucket'))!.Resource)).not.toContain('/');
    expect(tableGrants(api)).toEqual({
      'JOB#*': ['GetItem', 'PutItem', 'Query', 'UpdateItem'],
      'KEY#*': ['GetItem'],
      'RATE#*': ['GetItem', 'UpdateItem'],
      // Batches: create, get, list, cancel (an ended batch leaves the active index).
      'BATCH#*': ['BatchGetItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
      BATCHES_ACTIVE: ['BatchGetItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
      'BATCHES#*': ['PutItem', 'Query'],
      // Uploads on AWS (found missing by the IAM check of the emulator flows).
      'UPLOAD#*': ['GetItem', 'PutItem', 'UpdateItem'],
      'UPLOADS_PENDING#*': ['DeleteItem', 'PutItem', 'Query'],
      // The per-key quota ledger (files, stored bytes, pending uploads), reserved in transactions.
      'QUOTA#*': ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
    });
    const statements = statementsOf(api);
    const byAction = (prefix: string) => statements.filter((s) => actionsOf(s).some((a) => a.startsWith(prefix)));
    // Sends chunks of jobs and plan tasks of batches; consumes neither queue.
    const sendable = [logicalId('AWS::SQS::Queue', 'ChunksQueue'), logicalId('AWS::SQS::Queue', 'BatchTasksQueue')];
    expect(byAction('sqs:').every((s) => actionsOf(s).every((a) => a === 'sqs:SendMessage') && sendable.some((q) => refersTo(s, q)))).toBe(
      true,
    );
    expect(byAction('logs:').every((s) => refersTo(s, logicalId('AWS::Logs::LogGroup', 'ApiLogs')))).toBe(true);
  });

  it('worker: job store items, consuming the chunk queue and queueing each job finish task on it', () => {
    const worker = roleId('Worker');
    expect(allActions(worker)).toEqual(
      [
        'dynamodb:BatchGetItem',
        'dynamodb:DeleteItem',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:Query',
        'dynamodb:UpdateItem',
        'logs:CreateLogStream',
        'logs:PutLogEvents',
        'sqs:ChangeMessageVisibility',
        'sqs:DeleteMessage',
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
        'sqs:ReceiveMessage',
        // The chunk that completes a job's count queues its finish task (the IAM check of the job flow found it missing).
        'sqs:SendMessage',
        'xray:PutTelemetryRecords',
        'xray:PutTraceSegments',
      ].sort(),
    );
    const sqsStatements = statementsOf(worker).filter((s) => actionsOf(s).some((a) => a.startsWith('sqs:')));
    expect(sqsStatements.every((s) => refersTo(s, logicalId('AWS::SQS::Queue', 'ChunksQueue')))).toBe(true);
    expect(tableGrants(worker)).toEqual({
      'JOB#*': ['GetItem', 'PutItem', 'Query', 'UpdateItem'],
      // Its chunks in the ChunkLedger: the batch protocol's items under the job's own owner key, not every batch's.
      'BATCH#job:*': ['BatchGetItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
      'QUOTA#*': ['DeleteItem', 'GetItem', 'UpdateItem'],
    });
    // The pattern covers exactly the partitions the ledger writes a job's chunks to.
    const shard = counterShardPk(jobLedgerOwner('0c4e7f42-job'), 1, 3);
    expect(globMatches('BATCH#job:*', shard)).toBe(true);
    expect(globMatches('BATCH#job:*', counterShardPk('batch_0123abcd', 1, 3))).toBe(false);
  });

  it('dead-letter consumer: job store items and consuming the DLQ only', () => {
    const deadLetter = roleId('DeadLetter');
    const sqsStatements = statementsOf(deadLetter).filter((s) => actionsOf(s).some((a) => a.startsWith('sqs:')));
    expect(sqsStatements.length).toBeGreaterThan(0);
    expect(sqsStatements.every((s) => refersTo(s, logicalId('AWS::SQS::Queue', 'ChunksDeadLetterQueue')))).toBe(true);
    expect(allActions(deadLetter)).not.toContain('sqs:SendMessage');
    expect(tableGrants(deadLetter)).toEqual({
      // A dead-lettered chunk that was recorded after all lets it merge the job (result pages written, documents read).
      'JOB#*': ['GetItem', 'PutItem', 'Query', 'UpdateItem'],
      'BATCH#job:*': ['BatchGetItem', 'DeleteItem', 'Query'],
      'QUOTA#*': ['DeleteItem', 'GetItem', 'UpdateItem'],
    });
  });

  it('batch worker and batch dead-letter consumer: batch items, the key quota ledger, sending batch tasks, each its own queue, the files bucket; no job, key or rate items', () => {
    const bucket = logicalId('AWS::S3::Bucket', 'FilesBucket');
    const taskQueue = logicalId('AWS::SQS::Queue', 'BatchTasksQueue');
    const sqsActions = (role: string, queue: string) =>
      [
        ...new Set(
          statementsOf(role)
            .filter((s) => refersTo(s, queue))
            .flatMap(actionsOf),
        ),
      ]
        .filter((a) => a.startsWith('sqs:'))
        .sort();
    const consume = ['sqs:ChangeMessageVisibility', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:ReceiveMessage'];
    for (const [fn, consumed, write] of [
      ['BatchWorker', 'BatchTasksQueue', true],
      ['BatchDeadLetter', 'BatchTasksDeadLetterQueue', false],
    ] as const) {
      const role = roleId(fn);
      expect(tableGrants(role), fn).toEqual({
        'BATCH#*': ['BatchGetItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
        BATCHES_ACTIVE: ['BatchGetItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
        // Result lines charged to the key's stored bytes as they are kept (their holds found by prefix at the end); the
        // running batch given back at its end.
        'QUOTA#*': ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
      });
      // Both send tasks (chunks, finalizes) on the task queue; each consumes only its own queue.
      const queue = logicalId('AWS::SQS::Queue', consumed);
      const sqsStatements = statementsOf(role).filter((s) => actionsOf(s).some((a) => a.startsWith('sqs:')));
      expect(
        sqsStatements.every((s) => refersTo(s, taskQueue) || refersTo(s, queue)),
        fn,
      ).toBe(true);
      expect(sqsActions(role, taskQueue), fn).toEqual(fn === 'BatchWorker' ? [...consume, 'sqs:SendMessage'].sort() : ['sqs:SendMessage']);
      if (fn === 'BatchDeadLetter') expect(sqsActions(role, queue), fn).toEqual(consume);
      const s3Statements = statementsOf(role).filter((s) => actionsOf(s).some((a) => a.startsWith('s3:')));
      expect(s3Statements.length, fn).toBeGreaterThan(0);
      expect(
        s3Statements.every((s) => refersTo(s, bucket)),
        fn,
      ).toBe(true);
      // The dead-letter recovery reads a line's input (and its corpus); only the worker writes output files and sweeps.
      expect(allActions(role).includes('s3:PutObject'), fn).toBe(write);
      expect(allActions(role).includes('s3:DeleteObject'), fn).toBe(write);
    }
  });

  it('scopes every table statement to this table by dynamodb:LeadingKeys; nothing reaches the key list partition', () => {
    const table = logicalId('AWS::DynamoDB::Table', 'JobsTable');
    for (const name of ['Api', 'Worker', 'DeadLetter', 'BatchWorker', 'BatchDeadLetter', 'EdgeAuth'] as const) {
      const statements = statementsOf(roleId(name)).filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')));
      expect(statements.length, name).toBeGreaterThan(0);
      for (const statement of statements) {
        // The table itself, no index ARN, and only a condition on the partition key.
        expect(statement.Resource, name).toEqual({ 'Fn::GetAtt': [table, 'Arn'] });
        expect(Object.keys(statement.Condition ?? {}), name).toEqual(['ForAllValues:StringLike']);
        expect(Object.keys(statement.Condition!['ForAllValues:StringLike']!), name).toEqual(['dynamodb:LeadingKeys']);
      }
      // KEYS/<keyId> lists every key's digest: only the operator's CLI may read it.
      for (const pattern of Object.keys(tableGrants(roleId(name))))
        expect(globMatches(pattern, KEY_LIST_PK), `${name} ${pattern}`).toBe(false);
    }
  });

  it('needs no ConditionCheckItem: the DynamoDB adapters put no ConditionCheck item in a transaction', () => {
    const adapterDir = path.join(PROJECT_ROOT, 'shared', 'adapters', 'dynamodb');
    const sources = listFiles(adapterDir).filter((f) => f.endsWith('.ts'));
    expect(sources.length).toBeGreaterThan(0);
    // A ConditionCheck transaction item is authorised as dynamodb:ConditionCheckItem: grant it in TABLE_ACCESS first.
    for (const file of sources) expect(readFileSync(file, 'utf8'), file).not.toMatch(/\bConditionCheck\s*:/);
  });

  it('lets only API Gateway invoke the API alias and the authorizer, scoped to this API, and the expiry schedule the batch worker', () => {
    const schedule = resources('AWS::Lambda::Permission').filter(([, p]) => p.Properties['Principal'] === 'events.amazonaws.com');
    expect(schedule).toHaveLength(1);
    expect(schedule[0]![1].Properties).toMatchObject({
      Action: 'lambda:InvokeFunction',
      FunctionName: { 'Fn::GetAtt': [functionId('BatchWorker'), 'Arn'] },
      SourceArn: { 'Fn::GetAtt': [logicalId('AWS::Events::Rule', 'BatchExpirySchedule'), 'Arn'] },
    });
    const permissions = resources('AWS::Lambda::Permission').filter(([, p]) => p.Properties['Principal'] !== 'events.amazonaws.com');
    expect(permissions.length).toBeGreaterThan(0);
    const targets = new Set<string>();
    for (const [, permission] of permissions) {
      expect(permission.Properties).toMatchObject({ Action: 'lambda:InvokeFunction', Principal: 'apigateway.amazonaws.com' });
      targets.add(JSON.stringify(permission.Properties['FunctionName']));
      expect(JSON.stringify(permission.Properties['SourceArn'])).toContain(logicalId('AWS::ApiGatewayV2::Api', 'HttpHttpApi'));
    }
    expect([...targets].sort()).toEqual(
      [
        JSON.stringify({ Ref: logicalId('AWS::Lambda::Alias', 'ApiAlias') }),
        JSON.stringify({ 'Fn::GetAtt': [logicalId('AWS::Lambda::Function', 'EdgeAuthFunction'), 'Arn'] }),
      ].sort(),
    );
  });

  it('edge authorizer: reads key records by digest only', () => {
    const auth = logicalId('AWS::IAM::Role', 'EdgeAuthRole');
    expect(tableGrants(auth)).toEqual({ 'KEY#*': ['GetItem'] });
    expect(allActions(auth)).toEqual([
      'dynamodb:GetItem',
      'logs:CreateLogStream',
      'logs:PutLogEvents',
      'xray:PutTelemetryRecords',
      'xray:PutTraceSegments',
    ]);
  });
});

describe('HTTP API', () => {
  it('is an HTTP API with payload v2 Lambda proxy integration', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Api', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { Name: 'rerank-api', ProtocolType: 'HTTP' });
    template.resourceCountIs('AWS::ApiGatewayV2::Integration', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Integration', {
      IntegrationType: 'AWS_PROXY',
      PayloadFormatVersion: '2.0',
      IntegrationUri: { Ref: logicalId('AWS::Lambda::Alias', 'ApiAlias') },
    });
  });

  it("routes exactly the handler's routes: no $default, so API Gateway answers unknown paths without the function", () => {
    const routeKeys = resources('AWS::ApiGatewayV2::Route')
      .map(([, route]) => route.Properties['RouteKey'] as string)
      .sort();
    // A template API Gateway cannot express is routed on its greedy form (gatewayPath), once.
    expect(routeKeys).toEqual([...new Set(API_ROUTES.map((r) => `${r.method} ${gatewayPath(r.path)}`))].sort());
  });

  it('puts the cached REQUEST authorizer on every non-public route, keyed by the Authorization header', () => {
    const authorizer = logicalId('AWS::ApiGatewayV2::Authorizer', 'HttpHttpApiApiKey');
    template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'REQUEST',
      AuthorizerPayloadFormatVersion: '2.0',
      EnableSimpleResponses: true,
      IdentitySource: ['$request.header.Authorization'],
      AuthorizerResultTtlInSeconds: 60,
    });
    // /rerank also serves Pinecone's clients, whose key is in Api-Key: the same function, asked every time.
    const keyHeaderAuthorizer = logicalId('AWS::ApiGatewayV2::Authorizer', 'HttpHttpApiAnyKeyHeader');
    template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'REQUEST',
      EnableSimpleResponses: true,
      IdentitySource: [],
      AuthorizerResultTtlInSeconds: 0,
    });
    for (const [, route] of resources('AWS::ApiGatewayV2::Route')) {
      const key = route.Properties['RouteKey'] as string;
      const isPublic = API_ROUTES.some((r) => r.public === true && `${r.method} ${gatewayPath(r.path)}` === key);
      if (isPublic) expect(route.Properties['AuthorizationType'] ?? 'NONE', key).toBe('NONE');
      else if (key === 'POST /rerank')
        expect(route.Properties, key).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: keyHeaderAuthorizer } });
      else expect(route.Properties, key).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authorizer } });
    }
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('^Rerank edge authorizer'),
      MemorySize: 256,
      Runtime: 'nodejs24.x',
      Environment: { Variables: Match.objectLike({ RERANK_JOBS_TABLE: { Ref: logicalId('AWS::DynamoDB::Table', 'JobsTable') } }) },
    });
  });

  it('serves on the $default stage (no stage segment in client base URLs) with throttling and access logs', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 },
      AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': [logicalId('AWS::Logs::LogGroup', 'HttpAccessLogs'), 'Arn'] } },
    });
    const format = template.findResources('AWS::ApiGatewayV2::Stage');
    expect(JSON.stringify(format)).not.toMatch(/authorization|\$request\.body/i);
  });
});

describe('operations', () => {
  const alarmOn = (metricName: string, namespace: string) =>
    resources('AWS::CloudWatch::Alarm').filter(
      ([, alarm]) => alarm.Properties['MetricName'] === metricName && alarm.Properties['Namespace'] === namespace,
    );

  it('alarms when the DLQ receives a message (its consumer drains it at once, so "visible" rarely fires)', () => {
    // One alarm per DLQ: the chunk queue's and the batch task queue's.
    const hits = alarmOn('NumberOfMessagesReceived', 'AWS/SQS');
    expect(hits).toHaveLength(2);
    expect(alarmOn('ApproximateNumberOfMessagesVisible', 'AWS/SQS')).toHaveLength(0);
    for (const [hit, queue] of [
      [hits[0], 'ChunksDeadLetterQueue'],
      [hits[1], 'BatchTasksDeadLetterQueue'],
    ] as const) {
      expect(hit![1].Properties).toMatchObject({
        Threshold: 0,
        Statistic: 'Sum',
        ComparisonOperator: 'GreaterThanThreshold',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [logicalId('AWS::SQS::Queue', queue), 'QueueName'] } }],
      });
    }
  });

  it('alarms on errors and throttles of every function', () => {
    for (const metric of ['Errors', 'Throttles']) {
      const watched = alarmOn(metric, 'AWS/Lambda').map(([, a]) => JSON.stringify(a.Properties['Dimensions']));
      for (const name of ['Api', 'Worker', 'DeadLetter', 'BatchWorker', 'BatchDeadLetter', 'EdgeAuth'] as const) {
        expect(
          watched.some((d) => d.includes(logicalId('AWS::Lambda::Function', `${name}Function`))),
          `${metric} ${name}`,
        ).toBe(true);
      }
    }
  });

  it('alarms on API 5xx', () => {
    const [hit] = alarmOn('5xx', 'AWS/ApiGateway');
    expect(JSON.stringify(hit![1].Properties['Dimensions'])).toContain(logicalId('AWS::ApiGatewayV2::Api', 'HttpHttpApi'));
  });

  it("alarms on API p99 latency, the oldest chunk's age, failed jobs (the service's own metric) and table throttles", () => {
    const [latency] = alarmOn('Latency', 'AWS/ApiGateway');
    expect(latency![1].Properties).toMatchObject({ ExtendedStatistic: 'p99', Threshold: 12_000, EvaluationPeriods: 3 });
    const [age] = alarmOn('ApproximateAgeOfOldestMessage', 'AWS/SQS');
    expect(age![1].Properties).toMatchObject({
      Threshold: 300,
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [logicalId('AWS::SQS::Queue', 'ChunksQueue'), 'QueueName'] } }],
    });
    const [failed] = alarmOn('JobsFailed', 'RerankService');
    expect(failed![1].Properties).toMatchObject({ Threshold: 0, Statistic: 'Sum', Dimensions: [{ Name: 'service', Value: 'rerank' }] });
    const throttles = resources('AWS::CloudWatch::Alarm').filter(([, a]) =>
      JSON.stringify(a.Properties['Metrics'] ?? []).includes('ThrottleEvents'),
    );
    expect(throttles).toHaveLength(1);
    expect(JSON.stringify(throttles[0]![1].Properties['Metrics'])).toMatch(/ReadThrottleEvents[\s\S]*WriteThrottleEvents/);
  });

  it('sends every alarm and its recovery to the KMS-encrypted alarm topic and draws a dashboard', () => {
    const topic = logicalId('AWS::SNS::Topic', 'MonitoringAlarmTopic');
    template.resourceCountIs('AWS::CloudWatch::Alarm', 19);
    template.allResourcesProperties('AWS::CloudWatch::Alarm', {
      AlarmActions: [{ Ref: topic }],
      OKActions: [{ Ref: topic }],
      TreatMissingData: 'notBreaching',
    });
    template.hasResourceProperties('AWS::SNS::Topic', {
      KmsMasterKeyId: { 'Fn::GetAtt': [logicalId('AWS::KMS::Key', 'MonitoringAlarmTopicKey'), 'Arn'] },
    });
    template.hasResourceProperties('AWS::KMS::Key', {
      EnableKeyRotation: true,
      KeyPolicy: {
        Statement: Match.arrayWith([
          Match.objectLike({ Principal: { Service: 'cloudwatch.amazonaws.com' }, Action: ['kms:Decrypt', 'kms:GenerateDataKey*'] }),
        ]),
      },
    });
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    // The batch chunks' EMF metrics (record-batch-metrics.ts) by source: a corpus analysed once, then served stored.
    const dashboard = JSON.stringify(resources('AWS::CloudWatch::Dashboard')[0]![1].Properties['DashboardBody']);
    for (const source of ['analysed', 'stored', 'encoded'])
      expect(dashboard).toMatch(new RegExp(`BatchChunks[^\\]]*source[^\\]]*${source}`));
    expect(dashboard).toContain('BatchChunkDocuments');
    // The dev stage deploys its alarms unsubscribed (any other stage fails synth until it chooses).
    template.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('outputs the API URL, the table (where `npm run keys --table` creates keys) and queue names', () => {
    const outputs = template.toJSON().Outputs as Record<string, unknown>;
    expect(Object.keys(outputs).sort()).toEqual(
      [
        'AlarmTopicArn',
        'ApiFunctionName',
        'ApiUrl',
        'BatchTaskQueueName',
        'ChunkDeadLetterQueueName',
        'ChunkQueueName',
        'DashboardName',
        'FilesBucketName',
        'JobsTableName',
      ].sort(),
    );
    template.hasOutput('JobsTableName', { Value: { Ref: logicalId('AWS::DynamoDB::Table', 'JobsTable') } });
  });
});

describe('rollout and hygiene', () => {
  it('serves the API and the worker from a `live` alias that CodeDeploy shifts canary-wise, rolled back by alarms', () => {
    for (const name of ['ApiAlias', 'WorkerAlias']) {
      const [, alias] = resources('AWS::Lambda::Alias').find(([id]) => id.startsWith(name))!;
      expect(alias.Properties).toMatchObject({ Name: 'live' });
    }
    template.resourceCountIs('AWS::CodeDeploy::DeploymentGroup', 2);
    template.allResourcesProperties('AWS::CodeDeploy::DeploymentGroup', {
      DeploymentConfigName: 'CodeDeployDefault.LambdaCanary10Percent5Minutes',
      AlarmConfiguration: Match.objectLike({ Enabled: true }),
      AutoRollbackConfiguration: { Enabled: true, Events: Match.arrayWith(['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_ALARM']) },
    });
    const alarmNames = (group: Resource) => JSON.stringify((group.Properties['AlarmConfiguration'] as { Alarms: unknown[] }).Alarms);
    const [api, worker] = ['ApiDeployment', 'WorkerDeployment'].map(
      (id) => resources('AWS::CodeDeploy::DeploymentGroup').find(([k]) => k.startsWith(id))![1],
    );
    for (const alarm of ['MonitoringApiErrors', 'MonitoringApi5xx', 'MonitoringApiLatencyP99']) expect(alarmNames(api!)).toContain(alarm);
    for (const alarm of ['MonitoringWorkerErrors', 'MonitoringJobsFailed', 'MonitoringDeadLetterQueueReceived'])
      expect(alarmNames(worker!)).toContain(alarm);
    // The alias carries CodeDeploy's update policy, so CloudFormation hands the version shift to it.
    const [, apiAlias] = Object.entries(template.findResources('AWS::Lambda::Alias')).find(([id]) => id.startsWith('ApiAlias'))!;
    expect(apiAlias).toHaveProperty('UpdatePolicy.CodeDeployLambdaAliasUpdate');
  });

  it('tags every taggable resource with project and stage', () => {
    for (const type of [
      'AWS::Lambda::Function',
      'AWS::DynamoDB::Table',
      'AWS::SQS::Queue',
      'AWS::SNS::Topic',
      'AWS::KMS::Key',
      'AWS::IAM::Role',
      'AWS::Logs::LogGroup',
    ]) {
      for (const [id, resource] of resources(type)) {
        expect(resource.Properties['Tags'], `${type} ${id}`).toEqual(
          expect.arrayContaining([
            { Key: 'project', Value: 'rerank' },
            { Key: 'stage', Value: 'dev' },
          ]),
        );
      }
    }
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { Tags: { project: 'rerank', stage: 'dev' } });
  });

  it('protects the retained jobs table (it holds the keys) from deletion', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: true });
  });

  it('sets every recommended CDK feature flag for a new app in cdk.json', async () => {
    const { CURRENTLY_RECOMMENDED_FLAGS, NEW_PROJECT_DEFAULT_CONTEXT } = await import('aws-cdk-lib/cx-api');
    const context = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'cdk.json'), 'utf8')).context as Record<string, unknown>;
    for (const [flag, value] of Object.entries({ ...NEW_PROJECT_DEFAULT_CONTEXT, ...CURRENTLY_RECOMMENDED_FLAGS }))
      expect(context[flag], flag).toEqual(value);
  });
});

describe('context overrides', () => {
  it('drops the table with the stack when told (PITR then follows: off), switches architecture and subscribes an alarm e-mail', () => {
    const { template: t } = synthRerankStack({
      bundle: false,
      context: {
        'rerank:retainTable': 'false',
        'rerank:architecture': 'x86_64',
        'rerank:alarmEmail': 'ops@example.com',
        'rerank:workerMemoryMb': '5307',
        'rerank:rateLimitPerMinute': '120',
        'rerank:maxConcurrentJobs': '3',
        'rerank:upstreamAllowedHosts': 'API.Cohere.com, api.jina.ai:8443',
        'rerank:fileRetentionDays': '7',
      },
    });
    // A throwaway stage drops its files with it, and keeps them the days it was told.
    t.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Delete',
      Properties: Match.objectLike({ LifecycleConfiguration: { Rules: [Match.objectLike({ ExpirationInDays: 7 })] } }),
    });
    t.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Delete',
      UpdateReplacePolicy: 'Delete',
      Properties: Match.objectLike({ DeletionProtectionEnabled: false }),
    });
    t.hasResource('AWS::DynamoDB::Table', {
      Properties: Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: false } }),
    });
    t.allResourcesProperties('AWS::Lambda::Function', { Architectures: ['x86_64'] });
    for (const description of ['^Rerank API', '^Rerank worker', '^Rerank dead-letter']) {
      // Every scoring function may call an allowed upstream (a job's chunks are scored by the worker).
      t.hasResourceProperties('AWS::Lambda::Function', {
        Description: Match.stringLikeRegexp(description),
        Environment: { Variables: Match.objectLike({ RERANK_UPSTREAM_ALLOWED_HOSTS: 'api.cohere.com,api.jina.ai:8443' }) },
      });
    }
    t.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('^Rerank API'),
      Environment: { Variables: Match.objectLike({ RERANK_RATE_LIMIT_PER_MINUTE: '120', RERANK_MAX_CONCURRENT_JOBS: '3' }) },
    });
    t.hasResourceProperties('AWS::Lambda::Function', {
      MemorySize: 5307,
      Environment: { Variables: Match.objectLike({ RERANK_THREADS: '3' }) },
    });
    t.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
  });

  it('adds provisioned concurrency to the API alias, can drop the authorizer, and rolls out linearly when told', () => {
    const { template: t } = synthRerankStack({
      bundle: false,
      context: {
        'rerank:apiProvisionedConcurrency': '3',
        'rerank:edgeAuthorizer': 'false',
        'rerank:deploymentPreference': 'Linear10PercentEvery1Minute',
      },
    });
    t.hasResourceProperties('AWS::Lambda::Alias', { Name: 'live', ProvisionedConcurrencyConfig: { ProvisionedConcurrentExecutions: 3 } });
    t.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 0);
    t.resourceCountIs('AWS::Lambda::Function', 5);
    t.allResourcesProperties('AWS::CodeDeploy::DeploymentGroup', {
      DeploymentConfigName: 'CodeDeployDefault.LambdaLinear10PercentEvery1Minute',
    });
  });

  it("routes Weaviate's protocol under rerank:weaviatePrefix on API Gateway and tells the API function the same prefix", () => {
    const { template: t } = synthRerankStack({ bundle: false, context: { 'rerank:weaviatePrefix': '/reranker/v1' } });
    const routeKeys = Object.values(t.findResources('AWS::ApiGatewayV2::Route')).map(
      (route) => (route as { Properties: { RouteKey: string } }).Properties.RouteKey,
    );
    expect(routeKeys).toEqual(
      expect.arrayContaining(['POST /reranker/v1/rerank', 'GET /reranker/v1/meta', 'GET /reranker/v1/.well-known/ready']),
    );
    expect(routeKeys.filter((key) => key.includes('/weaviate/'))).toEqual([]);
    t.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('^Rerank API'),
      Environment: { Variables: Match.objectLike({ RERANK_WEAVIATE_PREFIX: '/reranker/v1' }) },
    });
  });

  it('keeps PITR when asked for on a table that is not retained', () => {
    const { template: t } = synthRerankStack({
      bundle: false,
      context: { 'rerank:retainTable': 'false', 'rerank:pointInTimeRecovery': 'true' },
    });
    t.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Delete',
      Properties: Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }),
    });
  });
});
