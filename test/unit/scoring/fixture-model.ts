import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The committed TinyBERT-L2-shaped cross-encoder (random-ish weights, real vocab); see its README. */
export const FIXTURE_MODEL_DIR = path.join(root, 'models', 'tinybert-l2-fixture');
export const FIXTURE_MODEL_FILE = 'onnx/model_quantized.onnx';

export interface GoldenCase {
  readonly name: string;
  readonly query: string;
  readonly document: string;
  readonly tokens: number;
  readonly untruncatedTokens: number;
  readonly queryTokens: number;
  readonly inputIds: number[];
  readonly tokenTypeIds: number[];
  readonly logit: number;
}

export interface Golden {
  readonly maxLength: number;
  readonly onnx: string;
  readonly cases: GoldenCase[];
}

/** Reference values written by scripts/model/golden.py (Python tokenizer + onnxruntime). */
export function loadGolden(): Golden {
  return JSON.parse(readFileSync(path.join(root, 'test', 'fixtures', 'model', 'golden.json'), 'utf8')) as Golden;
}

export function goldenCase(golden: Golden, name: string): GoldenCase {
  const found = golden.cases.find((c) => c.name === name);
  if (found === undefined) throw new Error(`golden case ${name} missing`);
  return found;
}
