import { parseArgs } from 'node:util';
import { InvalidApiKeyOptionsError } from '../../../shared/auth/api-key-errors.js';
import { formatKeyList } from './format-key-list.js';
import { DEFAULT_KEY_FILE, MissingRegionError, openKeyStore } from './key-store-target.js';

const HELP = `Manage rerank API keys (stored as SHA-256 digests only; a key is shown once, at creation).

Usage:
  npm run keys -- create --name <name> [--rate <requests per minute>] [--max-jobs <n>] [--max-queued-pairs <n>]
  npm run keys -- list
  npm run keys -- revoke <keyId>

Where the keys live (default: the local file that npm start reads):
  --file <path>       JSON key file (default: $RERANK_KEYS_FILE, as the server reads it, else ${DEFAULT_KEY_FILE})
  --table <name>      the deployed jobs table instead (stack output JobsTableName); region and credentials
                      come from the normal AWS environment (AWS_PROFILE, AWS_REGION, SSO, ...)
  --endpoint <url>    DynamoDB endpoint, e.g. DynamoDB Local (only with --table)
  --region <region>   AWS region (only with --table; default from the AWS environment)

Other options:
  --json              machine-readable output
  -h, --help          this text

Revoked keys stop working at once for new API containers and within the API's key cache TTL for running ones.
`;

const OPTIONS = {
  name: { type: 'string' },
  rate: { type: 'string' },
  'max-jobs': { type: 'string' },
  'max-queued-pairs': { type: 'string' },
  file: { type: 'string' },
  table: { type: 'string' },
  endpoint: { type: 'string' },
  region: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

class UsageError extends Error {
  override name = 'UsageError';
}

function positiveInt(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(value)) throw new UsageError(`${flag} must be a positive integer`);
  return Number(value);
}

async function main(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  const [command, ...rest] = positionals;
  if (values.help || command === undefined || command === 'help') {
    process.stdout.write(HELP);
    return command === undefined && !values.help ? 2 : 0;
  }
  if (values.file !== undefined && values.table !== undefined) throw new UsageError('use either --file or --table, not both');
  if ((values.endpoint ?? values.region) !== undefined && values.table === undefined)
    throw new UsageError('--endpoint and --region need --table');

  const target = openKeyStore(values);
  try {
    await target.ready();
    switch (command) {
      case 'create': {
        if (values.name === undefined) throw new UsageError('create needs --name <name>');
        if (rest.length > 0) throw new UsageError(`unexpected argument: ${rest[0]}`);
        const rateLimitPerMinute = positiveInt('--rate', values.rate);
        const maxConcurrentJobs = positiveInt('--max-jobs', values['max-jobs']);
        const maxQueuedPairs = positiveInt('--max-queued-pairs', values['max-queued-pairs']);
        const { key, record } = await target.store.create(values.name, {
          ...(rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute }),
          ...(maxConcurrentJobs === undefined ? {} : { maxConcurrentJobs }),
          ...(maxQueuedPairs === undefined ? {} : { maxQueuedPairs }),
        });
        if (values.json) process.stdout.write(`${JSON.stringify({ key, record })}\n`);
        else process.stdout.write(`Created key "${record.name}" (id ${record.keyId}) in ${target.description}\n\n  ${key}\n\n`);
        process.stderr.write('Store this key now: it is shown only once and cannot be recovered (only its SHA-256 digest is stored).\n');
        return 0;
      }
      case 'list': {
        if (rest.length > 0) throw new UsageError(`unexpected argument: ${rest[0]}`);
        const records = await target.store.list();
        process.stdout.write(values.json ? `${JSON.stringify(records)}\n` : `${formatKeyList(records)}\n`);
        return 0;
      }
      case 'revoke': {
        const [keyId, extra] = rest;
        if (keyId === undefined || extra !== undefined) throw new UsageError('revoke needs exactly one <keyId> (see list)');
        if (await target.store.revoke(keyId)) {
          process.stdout.write(values.json ? `${JSON.stringify({ revoked: keyId })}\n` : `Revoked key ${keyId} in ${target.description}\n`);
          return 0;
        }
        process.stderr.write(`No live key with id ${keyId} in ${target.description} (unknown or already revoked)\n`);
        return 1;
      }
      default:
        throw new UsageError(`unknown command: ${command}`);
    }
  } finally {
    target.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const usage =
      error instanceof UsageError ||
      error instanceof MissingRegionError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') === true;
    const known = usage || error instanceof InvalidApiKeyOptionsError;
    // Our own errors carry no key; anything else is reported by name and message only, never with request data.
    process.stderr.write(`keys: ${(error as Error).message}${usage ? '\nRun with --help for usage.' : ''}\n`);
    if (!known && (error as Error).name) process.stderr.write(`(${(error as Error).name})\n`);
    process.exitCode = usage ? 2 : 1;
  },
);
