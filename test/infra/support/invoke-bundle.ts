import { spawnSync } from 'node:child_process';
import { scratchDir, type FunctionAsset } from './synth-rerank.js';

/**
 * Runs in a fresh `node` whose cwd is an empty folder and whose LAMBDA_TASK_ROOT is the asset folder, as on
 * Lambda: imports the bundle's index.mjs, invokes its handler once per event, and reports where
 * onnxruntime-node resolved from (it must be the bundle's own pruned copy).
 */
const CHILD_SCRIPT = `
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
const root = process.env.LAMBDA_TASK_ROOT;
const events = JSON.parse(process.env.INVOKE_EVENTS);
const { [process.env.INVOKE_EXPORT]: handler } = await import(pathToFileURL(root + '/' + process.env.INVOKE_MODULE).href);
const context = {
  functionName: 'bundle-test', functionVersion: '$LATEST', memoryLimitInMB: '3008', awsRequestId: 'bundle-test',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:bundle-test', logGroupName: 'g', logStreamName: 's',
  callbackWaitsForEmptyEventLoop: true, getRemainingTimeInMillis: () => 29000, done() {}, fail() {}, succeed() {},
};
const results = [];
for (const event of events) results.push(await handler(event, context));
let ortEntry = '';
try { ortEntry = createRequire(root + '/' + process.env.INVOKE_MODULE).resolve('onnxruntime-node'); } catch {}
process.stdout.write('\\n@@RESULT@@' + JSON.stringify({ results, ortEntry }));
`;

export interface BundleInvocation {
  readonly results: unknown[];
  readonly ortEntry: string;
}

/** The deployed environment of the function, minus what needs AWS (the jobs backend falls back to memory). */
function lambdaEnv(asset: FunctionAsset): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(asset.environment)) {
    if (typeof value === 'string' && key !== 'RERANK_JOBS_BACKEND') env[key] = value;
  }
  return env;
}

/**
 * `handler` is the function's Handler or image command: `index.handler` (zip) or `functions/api/handler.handler`
 * (image); its module is loaded as `<path>.mjs`, one of the extensions Lambda's Node runtime tries.
 */
export function invokeBundle(asset: FunctionAsset, events: readonly unknown[], handler = 'index.handler'): BundleInvocation {
  const dot = handler.lastIndexOf('.');
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', CHILD_SCRIPT], {
    cwd: scratchDir('rerank-bundle-cwd-'),
    env: {
      PATH: process.env['PATH'] ?? '',
      ...lambdaEnv(asset),
      LAMBDA_TASK_ROOT: asset.dir,
      POWERTOOLS_LOG_LEVEL: 'ERROR',
      INVOKE_EVENTS: JSON.stringify(events),
      INVOKE_MODULE: `${handler.slice(0, dot)}.mjs`,
      INVOKE_EXPORT: handler.slice(dot + 1),
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const marker = child.stdout.lastIndexOf('@@RESULT@@');
  if (child.status !== 0 || marker < 0) {
    throw new Error(
      `bundle ${asset.logicalId} failed (status ${child.status}):\n${child.stderr.slice(-4000)}\n${child.stdout.slice(-2000)}`,
    );
  }
  return JSON.parse(child.stdout.slice(marker + '@@RESULT@@'.length)) as BundleInvocation;
}

/** An HTTP API payload v2 event, as API Gateway sends it on the $default stage. */
export function httpApiEvent(method: string, rawPath: string, body?: unknown): Record<string, unknown> {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString: '',
    headers: { 'content-type': 'application/json' },
    requestContext: {
      accountId: '000000000000',
      apiId: 'bundle',
      domainName: 'bundle.execute-api.us-east-1.amazonaws.com',
      domainPrefix: 'bundle',
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bundle-test' },
      requestId: `req-${method}-${rawPath}`,
      routeKey: '$default',
      stage: '$default',
      time: new Date(0).toUTCString(),
      timeEpoch: Date.now(),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    isBase64Encoded: false,
  };
}

/** An SQS event with one record, as the event source mapping delivers it. */
export function sqsEvent(body: unknown, receiveCount = 1): Record<string, unknown> {
  return {
    Records: [
      {
        messageId: 'msg-1',
        receiptHandle: 'rh-1',
        body: JSON.stringify(body),
        attributes: {
          ApproximateReceiveCount: String(receiveCount),
          SentTimestamp: String(Date.now()),
          SenderId: 'test',
          ApproximateFirstReceiveTimestamp: String(Date.now()),
        },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:chunks',
        awsRegion: 'us-east-1',
      },
    ],
  };
}
