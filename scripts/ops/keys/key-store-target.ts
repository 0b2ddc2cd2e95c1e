import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDbApiKeyStore } from '../../../shared/adapters/dynamodb/keys/dynamodb-api-key-store.js';
import { InMemoryApiKeyStore } from '../../../shared/adapters/memory/in-memory-api-key-store.js';
import type { ApiKeyStore } from '../../../shared/auth/api-key-store.js';

/** The local key file `npm start` reads by default: under the project, gitignored, digests only. */
export const DEFAULT_KEY_FILE = fileURLToPath(new URL('../../../.rerank/keys.json', import.meta.url));

/**
 * The file the server reads: `RERANK_KEYS_FILE` when set (resolved as loadServiceConfig resolves it), else the
 * default. Writing anywhere else would leave a server started with that variable running without auth.
 */
export function configuredKeyFile(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env['RERANK_KEYS_FILE'];
  if (configured === undefined || configured === '') return DEFAULT_KEY_FILE;
  return resolve(env['RERANK_CODE_ROOT'] ?? env['LAMBDA_TASK_ROOT'] ?? process.cwd(), configured);
}

export interface KeyStoreTarget {
  readonly file?: string;
  readonly table?: string;
  readonly endpoint?: string;
  readonly region?: string;
}

/** A table named without a region anywhere in the AWS chain: the SDK's own "Region is missing" says not where to put one. */
export class MissingRegionError extends Error {
  override name = 'MissingRegionError';
  constructor() {
    super(
      'no AWS region for --table: pass --region <region> (e.g. --region us-east-1) or set AWS_REGION (or a region in your AWS profile)',
    );
  }
}

/**
 * The store a CLI run works on, and how to name it to the operator; the caller disposes the client. `ready` checks,
 * before the first call, what the store needs from the environment (a region for a table).
 */
export function openKeyStore(target: KeyStoreTarget): {
  store: ApiKeyStore;
  description: string;
  ready: () => Promise<void>;
  close: () => void;
} {
  if (target.table !== undefined) {
    // Region and credentials come from the normal AWS chain (AWS_PROFILE, AWS_REGION, SSO...); --endpoint for DynamoDB Local.
    const client = new DynamoDBClient({
      ...(target.endpoint === undefined ? {} : { endpoint: target.endpoint }),
      ...(target.region === undefined ? {} : { region: target.region }),
    });
    return {
      store: new DynamoDbApiKeyStore(target.table, client),
      description: `DynamoDB table ${target.table}${target.endpoint === undefined ? '' : ` at ${target.endpoint}`}`,
      ready: async () => {
        // The SDK resolves the region from --region, AWS_REGION or the profile, and rejects when none has one.
        await client.config.region().catch(() => {
          throw new MissingRegionError();
        });
      },
      close: () => client.destroy(),
    };
  }
  const file = target.file ?? configuredKeyFile();
  return {
    store: new InMemoryApiKeyStore({ file }),
    description: `key file ${file}`,
    ready: async () => undefined,
    close: () => undefined,
  };
}
