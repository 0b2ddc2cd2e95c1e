/**
 * `npm run model:pull -- <hub repo id> [options]`: pulls an ONNX cross-encoder into a model folder.
 * See --help. Endpoint: HF_ENDPOINT (default https://huggingface.co); token: HF_TOKEN.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  CHECKSUMS_FILE,
  fileDonePrinter,
  MODEL_VARIANTS,
  ModelPullError,
  progressPrinter,
  pullModel,
  type ModelVariant,
} from '../../../shared/scoring/model-pull/index.js';

const HELP = `usage: npm run model:pull -- <repo id> [--variant ${MODEL_VARIANTS.join('|')}] [--file onnx/<name>.onnx] [--revision main] [--out models/<name>] [--pytorch]

Downloads config.json, tokenizer.json, tokenizer_config.json, special_tokens_map.json and one ONNX graph
(+ its external data: model.onnx_data, model.onnx.data, model.onnx_data_1, ...) of a Hugging Face reranker
(cross-encoder or LLM reranker), verifies each file's size and checksum against the hub (LFS sha256 or git blob
sha1) and writes ${CHECKSUMS_FILE} (check with: sha256sum -c ${CHECKSUMS_FILE}). An interrupted download keeps
its .part file and resumes (HTTP Range) on the next attempt; each file gets 3 attempts per run.

  --variant   fp32 (default): onnx/model.onnx or model.onnx; fp16: onnx/model_fp16.onnx;
              quantized: onnx/model_quantized.onnx (dynamic int8); int8: onnx/model_int8.onnx, else model_quantized;
              uint8: onnx/model_uint8.onnx; q4: onnx/model_q4.onnx
  --file      exact ONNX path in the repo (overrides --variant)
  --revision  branch, tag or commit (default main)
  --out       model folder (default models/<repo name>)
  --allow-unverified  keep files the hub gives no checksum for (default: such a file fails the pull)
Repository ids and file names with '..', '.', empty or absolute segments are refused; every file is written inside --out.
  --pytorch   pull the PyTorch checkpoint instead (repos without ONNX), then convert it with
              python3 scripts/model/export-onnx.py <checkpoint folder> models/<name>
env: HF_ENDPOINT (default https://huggingface.co), HF_TOKEN (private or gated repositories)

examples:
  npm run model:pull -- cross-encoder/ms-marco-MiniLM-L-6-v2 --variant quantized
  npm run model:pull -- onnx-community/bge-reranker-v2-m3-ONNX --variant int8 --out models/bge-reranker-v2-m3
  npm run model:pull -- Alibaba-NLP/gte-reranker-modernbert-base --variant int8
  npm run model:pull -- Qwen/Qwen3-Reranker-0.6B --pytorch --out models/.build/qwen3-reranker-0.6b-torch`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      variant: { type: 'string', default: 'fp32' },
      file: { type: 'string' },
      revision: { type: 'string', default: 'main' },
      out: { type: 'string' },
      'allow-unverified': { type: 'boolean', default: false },
      pytorch: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const repo = positionals[0];
  if (values.help === true || repo === undefined) {
    console.log(HELP);
    return values.help === true ? 0 : 2;
  }
  const variant = values.variant as ModelVariant;
  if (!MODEL_VARIANTS.includes(variant)) {
    console.error(`--variant must be one of ${MODEL_VARIANTS.join(', ')}, got ${values.variant}`);
    return 2;
  }
  const destination = values.out ?? path.join('models', repo.split('/').pop()!);
  const endpoint = process.env['HF_ENDPOINT'] ?? 'https://huggingface.co';
  console.error(
    `pulling ${repo}@${values.revision} (${values.pytorch ? 'PyTorch checkpoint' : (values.file ?? variant)}) from ${endpoint} into ${destination}`,
  );
  const pulled = await pullModel({
    repo,
    destination,
    variant,
    pytorch: values.pytorch,
    revision: values.revision,
    ...(values.file === undefined ? {} : { onnxFile: values.file }),
    allowUnverified: values['allow-unverified'] === true,
    onProgress: progressPrinter(process.stderr),
    onFile: fileDonePrinter(process.stderr),
  });
  console.log(
    `${pulled.folder} (commit ${pulled.commit}, ${pulled.onnxFile ?? 'PyTorch checkpoint'}); checksums in ${path.join(pulled.folder, CHECKSUMS_FILE)}`,
  );
  if (pulled.onnxFile === undefined) console.log(`convert it: python3 scripts/model/export-onnx.py ${pulled.folder} models/<name>`);
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
