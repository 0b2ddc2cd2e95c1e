/**
 * `npm run model:pull -- <hub repo id> [options]`: pulls an ONNX cross-encoder into a model folder.
 * See --help. Endpoint: HF_ENDPOINT (default https://huggingface.co); token: HF_TOKEN.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CHECKSUMS_FILE, ModelPullError, pullModel, type DownloadProgress, type ModelVariant } from '../../../shared/scoring/model-pull/index.js';

const HELP = `usage: npm run model:pull -- <repo id> [--variant fp32|quantized] [--file onnx/<name>.onnx] [--revision main] [--out models/<name>]

Downloads config.json, tokenizer.json, tokenizer_config.json, special_tokens_map.json and one ONNX graph
(+ its external data) of a Hugging Face cross-encoder, verifies each file against the hub's checksum
(LFS sha256 or git blob sha1) and writes ${CHECKSUMS_FILE} (check with: sha256sum -c ${CHECKSUMS_FILE}).

  --variant   fp32 (default): onnx/model.onnx or model.onnx; quantized (alias int8): onnx/model_quantized.onnx, ...
  --file      exact ONNX path in the repo (overrides --variant)
  --revision  branch, tag or commit (default main)
  --out       model folder (default models/<repo name>)
  --allow-unverified  keep files the hub gives no checksum for (default: such a file fails the pull)
Repository ids and file names with '..', '.', empty or absolute segments are refused; every file is written inside --out.
env: HF_ENDPOINT (default https://huggingface.co), HF_TOKEN (private or gated repositories)

examples:
  npm run model:pull -- cross-encoder/ms-marco-MiniLM-L-6-v2 --variant quantized
  npm run model:pull -- Xenova/bge-reranker-base --variant quantized --out models/bge-reranker-base`;

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

/** One progress line per file, redrawn in place on a terminal, every 10% otherwise (CI logs). */
function progressPrinter(): (progress: DownloadProgress) => void {
  const tty = process.stderr.isTTY;
  const started = new Map<string, number>();
  const lastStep = new Map<string, number>();
  return ({ file, receivedBytes, totalBytes }) => {
    const start = started.get(file) ?? performance.now();
    started.set(file, start);
    const percent = totalBytes ? Math.floor((receivedBytes / totalBytes) * 100) : undefined;
    const step = tty ? Math.floor(performance.now() / 200) : Math.floor((percent ?? 0) / 10);
    if (lastStep.get(file) === step && receivedBytes !== totalBytes) return;
    lastStep.set(file, step);
    const rate = receivedBytes / Math.max(1e-3, (performance.now() - start) / 1000);
    const line = `  ${file}  ${mb(receivedBytes)}${totalBytes ? ` / ${mb(totalBytes)}  ${percent}%` : ''}  ${mb(rate)}/s`;
    process.stderr.write(tty ? `\r${line}\x1b[K` : `${line}\n`);
  };
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      variant: { type: 'string', default: 'fp32' },
      file: { type: 'string' },
      revision: { type: 'string', default: 'main' },
      out: { type: 'string' },
      'allow-unverified': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const repo = positionals[0];
  if (values.help === true || repo === undefined) {
    console.log(HELP);
    return values.help === true ? 0 : 2;
  }
  const variant = values.variant === 'int8' ? 'quantized' : values.variant;
  if (variant !== 'fp32' && variant !== 'quantized') {
    console.error(`--variant must be fp32 or quantized, got ${variant}`);
    return 2;
  }
  const destination = values.out ?? path.join('models', repo.split('/').pop()!);
  const endpoint = process.env['HF_ENDPOINT'] ?? 'https://huggingface.co';
  console.error(`pulling ${repo}@${values.revision} (${values.file ?? variant}) from ${endpoint} into ${destination}`);
  const onProgress = progressPrinter();
  const pulled = await pullModel({
    repo,
    destination,
    variant: variant as ModelVariant,
    revision: values.revision,
    ...(values.file === undefined ? {} : { onnxFile: values.file }),
    allowUnverified: values['allow-unverified'] === true,
    onProgress,
    onFile: (f) => {
      if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
      const how = f.skipped ? 'already present, sha256 ok' : f.verifiedBy === 'none' ? 'no hub checksum to verify' : `${f.verifiedBy} verified`;
      console.error(`  ${f.file}  ${mb(f.bytes)}  ${how}`);
    },
  });
  console.log(`${pulled.folder} (commit ${pulled.commit}, ${pulled.onnxFile}); checksums in ${path.join(pulled.folder, CHECKSUMS_FILE)}`);
  return 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  if (error instanceof ModelPullError) {
    console.error(`model:pull: ${error.message}`);
    process.exitCode = 1;
  } else {
    throw error;
  }
}
