/**
 * `tsx scripts/emulators/run.ts start|stop|status`: long-lived local AWS emulators for `npm run start:aws-local`.
 * start: DynamoDB Local + moto (detached, logs in .tmp/), the jobs table and chunk queues, then .tmp/emulators.json.
 * stop: kills exactly the recorded PIDs (after checking they still are those servers) and removes the file.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createJobsTable } from './create-jobs-table.js';
import { createChunkQueues } from './create-chunk-queues.js';
import { localAwsConfig } from './local-aws-config.js';
import { localServiceEnv } from './local-aws-stack.js';
import { startDynamoDbLocal } from './start-dynamodb-local.js';
import { startMotoServer } from './start-moto-server.js';
import { alive, stopPid } from './stop-pid.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tmp = join(root, '.tmp');
const stateFile = join(tmp, 'emulators.json');
const TABLE = process.env['RERANK_JOBS_TABLE'] ?? 'rerank-jobs';
const QUEUE = process.env['CHUNK_QUEUE_NAME'] ?? 'rerank-chunks';

interface ServerState {
  readonly endpoint: string;
  readonly pid: number;
  /** Substring of /proc/<pid>/cmdline that proves the PID is still our server, not a recycled one. */
  readonly marker: string;
}
interface EmulatorState {
  readonly dynamodb: ServerState;
  readonly sqs: ServerState;
  readonly tableName: string;
  readonly queueUrl: string;
  readonly dlqUrl: string;
  /** Ready to merge into the environment: the SDK v3 reads the service-specific endpoint variables itself. */
  readonly env: Record<string, string>;
}

const readState = (): EmulatorState | undefined =>
  existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as EmulatorState) : undefined;

const isOurs = (server: ServerState): boolean => {
  try {
    return alive(server.pid) && readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').includes(server.marker);
  } catch {
    return false;
  }
};

async function start(): Promise<void> {
  const existing = readState();
  if (existing !== undefined && isOurs(existing.dynamodb) && isOurs(existing.sqs)) {
    console.log(JSON.stringify(existing, null, 2));
    return;
  }
  if (existing !== undefined) await stop();
  mkdirSync(tmp, { recursive: true });
  const [dynamo, moto] = await Promise.all([
    startDynamoDbLocal({ detachedLogFile: join(tmp, 'dynamodb-local.log') }),
    startMotoServer({ detachedLogFile: join(tmp, 'moto.log') }),
  ]);
  const dynamoClient = new DynamoDBClient(localAwsConfig(dynamo.endpoint));
  const sqsClient = new SQSClient(localAwsConfig(moto.endpoint));
  try {
    await createJobsTable(dynamoClient, TABLE);
    const queues = await createChunkQueues(sqsClient, QUEUE);
    const state: EmulatorState = {
      dynamodb: { endpoint: dynamo.endpoint, pid: dynamo.pid, marker: 'DynamoDBLocal.jar' },
      sqs: { endpoint: moto.endpoint, pid: moto.pid, marker: 'moto.server' },
      tableName: TABLE,
      queueUrl: queues.queueUrl,
      dlqUrl: queues.dlqUrl,
      // The service's own variable names, so the block can be exported as it is.
      env: localServiceEnv({ dynamodbEndpoint: dynamo.endpoint, sqsEndpoint: moto.endpoint, tableName: TABLE, queueUrl: queues.queueUrl }),
    };
    writeFileSync(stateFile, JSON.stringify(state, null, 2) + '\n');
    console.log(JSON.stringify(state, null, 2));
  } catch (error) {
    await Promise.all([stopPid(dynamo.pid), stopPid(moto.pid)]);
    throw error;
  } finally {
    dynamoClient.destroy();
    sqsClient.destroy();
  }
}

async function stop(): Promise<void> {
  const state = readState();
  if (state === undefined) return;
  for (const server of [state.dynamodb, state.sqs]) {
    if (isOurs(server)) await stopPid(server.pid);
    else console.warn(`pid ${server.pid} is no longer ${server.marker}; not touching it`);
  }
  rmSync(stateFile, { force: true });
}

function status(): void {
  const state = readState();
  if (state === undefined) {
    console.log('emulators: not started');
    process.exitCode = 1;
    return;
  }
  console.log(JSON.stringify({ ...state, dynamodbRunning: isOurs(state.dynamodb), sqsRunning: isOurs(state.sqs) }, null, 2));
}

const command = process.argv[2];
const actions: Record<string, () => Promise<void> | void> = { start, stop, status };
const action = command === undefined ? undefined : actions[command];
if (action === undefined) {
  console.error('usage: tsx scripts/emulators/run.ts start|stop|status');
  process.exitCode = 2;
} else {
  Promise.resolve(action()).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
