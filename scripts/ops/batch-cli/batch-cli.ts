/**
 * `npm run batch -- submit requests.jsonl [--wait] [--out results.jsonl] [--endpoint /v1/rerank] [--base-url URL] [--key KEY]`
 * `npm run batch -- status|wait|cancel <batch id>`, `npm run batch -- download <batch id> --out results.jsonl`
 * `npm run -s batch -- upload corpus.jsonl [--purpose user_data]` prints the new file's id (for `documents_file_id`).
 * Paths are read from the folder `npm run` was started in (INIT_CWD), not the package folder npm runs scripts in.
 * The key comes from --key or RERANK_KEY; the base URL from --base-url, RERANK_BASE_URL, else http://127.0.0.1:3000.
 * With --out, the output file is written there and the error file beside it (`results.errors.jsonl`).
 */
import { openAsBlob, createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { RerankClient, RerankClientError, type RerankBatch } from '../../../shared/client/index.js';
import { progressReporter } from './batch-progress.js';
import { explainFailure, type CliTarget } from './explain-failure.js';

const USAGE = `usage:
  npm run batch -- submit <requests.jsonl> [--wait] [--out results.jsonl] [--endpoint /v1/rerank] [--base-url URL] [--key KEY]
  npm run batch -- status <batch id> | wait <batch id> [--out results.jsonl] | cancel <batch id> | download <batch id> --out results.jsonl
  npm run -s batch -- upload <corpus.jsonl> [--purpose user_data|batch]   (prints the file id)`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    wait: { type: 'boolean', default: false },
    out: { type: 'string' },
    endpoint: { type: 'string', default: '/v1/rerank' },
    'base-url': { type: 'string' },
    key: { type: 'string' },
    purpose: { type: 'string', default: 'user_data' },
    help: { type: 'boolean', default: false },
  },
});

/** A path as the user typed it: relative to the shell's folder (npm runs scripts in the package folder, INIT_CWD is where it was called). */
const userPath = (path: string): string => resolve(process.env['INIT_CWD'] ?? process.cwd(), path);

const errorsPath = (out: string): string => (out.endsWith('.jsonl') ? `${out.slice(0, -'.jsonl'.length)}.errors.jsonl` : `${out}.errors`);

async function save(client: RerankClient, batch: RerankBatch, out: string): Promise<void> {
  for (const [fileId, path] of [
    [batch.output_file_id, out],
    [batch.error_file_id, errorsPath(out)],
  ] as const) {
    if (fileId === undefined) continue;
    await pipeline(
      Readable.fromWeb((await client.batches.download(fileId)) as import('node:stream/web').ReadableStream),
      createWriteStream(userPath(path)),
    );
    console.error(`wrote ${path}`);
  }
}

async function waitAndSave(client: RerankClient, batch: RerankBatch): Promise<RerankBatch> {
  const progress = progressReporter(process.stderr, Date.now());
  const done = await client.batches.wait(batch, { onProgress: (b) => progress.update(b) });
  progress.end();
  if (values.out) await save(client, done, values.out);
  return done;
}

const apiKey = values.key ?? process.env['RERANK_KEY'];
const server: CliTarget = {
  keyGiven: apiKey !== undefined,
  ...(values['base-url'] !== undefined
    ? { baseUrl: values['base-url'], from: '--base-url' }
    : process.env['RERANK_BASE_URL']
      ? { baseUrl: process.env['RERANK_BASE_URL'], from: 'RERANK_BASE_URL' }
      : { baseUrl: 'http://127.0.0.1:3000', from: 'default' }),
};

async function main(): Promise<number> {
  const [command, target] = positionals;
  if (values.help || !command || !target) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const { baseUrl } = server;
  const client = new RerankClient({
    baseUrl: `${baseUrl.replace(/\/+$/, '')}/v1`,
    mode: 'openai',
    ...(apiKey ? { apiKey } : {}),
    timeoutMs: 600_000,
  });
  let batch: RerankBatch;
  switch (command) {
    case 'submit':
      batch = await client.batches.create(await openAsBlob(userPath(target)), { endpoint: values.endpoint });
      console.error(`created ${batch.id} (${batch.status})`);
      if (values.wait) batch = await waitAndSave(client, batch);
      break;
    case 'upload': {
      if (values.purpose !== 'user_data' && values.purpose !== 'batch') throw new RerankClientError('--purpose must be user_data or batch');
      const name = target.split('/').pop() ?? target;
      // Only the id on stdout, so `CORPUS=$(npm run -s batch -- upload corpus.jsonl)` captures it.
      console.log(
        await client.batches.uploadFile(await openAsBlob(userPath(target), { type: 'application/jsonl' }), {
          filename: name,
          purpose: values.purpose,
        }),
      );
      return 0;
    }
    case 'status':
      batch = await client.batches.retrieve(target);
      break;
    case 'wait':
      batch = await waitAndSave(client, await client.batches.retrieve(target));
      break;
    case 'cancel':
      batch = await client.batches.cancel(target);
      break;
    case 'download':
      if (!values.out) throw new RerankClientError('download needs --out <file>');
      batch = await client.batches.retrieve(target);
      await save(client, batch, values.out);
      break;
    default:
      console.error(USAGE);
      return 2;
  }
  console.log(JSON.stringify(batch));
  return batch.status === 'failed' ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(explainFailure(error, server));
    process.exit(1);
  },
);
